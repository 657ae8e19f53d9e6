package org.snowkey.spring.actuate;

import java.time.Instant;

import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseStatus;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * {@code snowkey}: UP while a worker id is held and ids can be issued on it. DOWN when the lease is lost, revoked or
 * released, or when its reserved ceiling lies in the past: renewals have failed for a whole lease and new ids would
 * fail closed.
 */
public class SnowKeyHealthIndicator extends AbstractHealthIndicator {

    private final SnowKeyIdGenerator generator;

    public SnowKeyHealthIndicator(final SnowKeyIdGenerator generator) {
        super("SnowKey health check failed");
        this.generator = generator;
    }

    @Override
    protected void doHealthCheck(final Health.Builder builder) {
        LeaseStatus status = generator.leaseStatus();
        long now = System.currentTimeMillis();
        boolean ceilingReached = status.ceilingMillis() >= 0 && status.ceilingMillis() != LeaseGrant.UNBOUNDED && status.ceilingMillis() < now;
        if (generator.isClosed() || !status.healthy() || ceilingReached) {
            builder.down();
        } else {
            builder.up();
        }
        builder.withDetail("workerId", status.workerId())
                .withDetail("registry", SnowKeyDescriptors.shown(status.registry()))
                .withDetail("pool", status.pool() == null ? "(static worker id)" : status.pool())
                .withDetail("leaseExpiresAt", SnowKeyDescriptors.instant(status.expiresAtMillis()))
                .withDetail("reservedCeiling", SnowKeyDescriptors.ceiling(status.ceilingMillis()))
                .withDetail("renewals", status.renewals())
                .withDetail("renewalFailures", status.renewalFailures());
        String problem = ceilingReached && status.healthy()
                ? "the lease ceiling " + Instant.ofEpochMilli(status.ceilingMillis()) + " has passed: renewals are failing and new ids fail closed"
                : status.problem();
        if (generator.isClosed()) {
            problem = "the SnowKey generator bean is closed";
        }
        if (problem != null) {
            builder.withDetail("problem", SnowKeyDescriptors.shown(problem));
        }
    }
}
