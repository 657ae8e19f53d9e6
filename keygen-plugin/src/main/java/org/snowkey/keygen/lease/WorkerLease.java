package org.snowkey.keygen.lease;

import java.util.Optional;
import java.util.OptionalInt;

import org.snowkey.keygen.layout.IdLayout;

/**
 * Where the generator gets its worker id from: a static number, or a lease from a registry.
 *
 * <p>One instance serves every generator of a scope (registry, namespace, pool) in the JVM. The generator asks
 * {@link #currentGrant()} when it starts a counter, not for every id: a lease ends a grant by revoking it
 * ({@link LeaseGrant#revoke}), which stops every counter on it, and a grant never issues above its ceiling.
 */
public interface WorkerLease extends AutoCloseable {

    /**
     * The grant in force. Acquires one on first use, and again after a loss, waiting up to the acquire
     * timeout of the backend.
     *
     * @throws LeaseUnavailableException when no grant can be had; the message says why and where
     */
    LeaseGrant currentGrant();

    /** Registry, location and pool, for messages and operators: "zookeeper 10.0.0.1:2181 /ns pool 'default'". */
    String describe();

    /**
     * The state of the lease for health checks and metrics, without acquiring anything. Backends with a registry
     * override it; the default describes the grant in force, if any was handed out.
     */
    default LeaseStatus status() {
        return new LeaseStatus(describe(), null, -1, -1, -1, false, "no status reported by this lease", 0, 0);
    }

    /**
     * Checks that ids of this layout may be issued on this lease. A lease that keeps its high-water marks as id
     * timestamps (relative to one epoch) refuses a layout of another epoch: its floors would lie below what it issued.
     *
     * @throws IllegalArgumentException naming both epochs
     */
    default void requireLayout(final IdLayout layout) {
    }

    /**
     * Opens another lease of this lease's pool on the same registry connection, for an extra holding of a hot generator
     * (docs/design.md, "Holdings: more worker ids for a hot generator"). The new lease is independent: it acquires,
     * renews and releases a worker id of its own and is closed on its own.
     *
     * @return the new lease, not acquired yet; empty when this lease has no pool to take more numbers from (a static
     *         worker id)
     */
    default Optional<WorkerLease> openSibling() {
        return Optional.empty();
    }

    /**
     * Whether {@link #openSibling()} can give more leases: false for a lease without a pool (a static worker id), whose
     * generator then never starts checking for growth. No I/O.
     */
    default boolean opensSiblings() {
        return false;
    }

    /**
     * How many numbers of this lease's pool nobody holds now, read from the registry (I/O: never on an id's path).
     *
     * @return empty when this lease has no pool (a static worker id)
     */
    default OptionalInt freeWorkerIds() {
        return OptionalInt.empty();
    }

    /** Releases the grant with the exact high-water mark. Idempotent; later calls to currentGrant fail. */
    @Override
    void close();
}
