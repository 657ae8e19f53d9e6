package org.snowkey.keygen.lease;

/**
 * What operators and health checks see of a lease.
 *
 * @param registry registry kind and location, never credentials
 * @param pool the pool name, or null for a static worker id
 * @param workerId the worker id held, or -1 when none is held
 * @param expiresAtMillis when the lease expires unless renewed (epoch ms), or -1 when it never expires
 * @param ceilingMillis the highest timestamp that may be issued (epoch ms), {@link LeaseGrant#UNBOUNDED} without a registry
 * @param healthy false when no grant is in force (lost, revoked, released or never acquired)
 * @param problem why it is not healthy, or the last renewal failure; null when there is none
 * @param renewals successful renewals since start
 * @param renewalFailures failed renewal attempts since start
 */
public record LeaseStatus(String registry, String pool, int workerId, long expiresAtMillis, long ceilingMillis, boolean healthy, String problem,
                          long renewals, long renewalFailures) {
}
