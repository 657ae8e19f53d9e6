package org.snowkey.keygen.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseUnavailableException;
import org.snowkey.keygen.lease.WorkerLease;

/**
 * A lease pool in memory, with the lease protocol's promise that matters to a generator: a number's next grant starts
 * above the high-water mark its last holder released. Leases of it open siblings, so a generator can grow its
 * holdings; tests revoke grants and read what each release wrote.
 */
public final class MemoryLeasePool {

    private final int size;

    private final ManualClock clock;

    /** The reserved-until of each number ever released (its next grant starts above it). */
    private final Map<Integer, Long> reservedUntil = new HashMap<>();

    /** The leases holding each number now. */
    private final Map<Integer, PoolLease> holders = new HashMap<>();

    private final List<PoolLease> opened = new ArrayList<>();

    /** The ceiling of grants handed out from now on: a registry that stopped renewing them at that millisecond. */
    private long ceilingOfNewGrants = LeaseGrant.UNBOUNDED;

    public MemoryLeasePool(final int size, final ManualClock clock) {
        this.size = size;
        this.clock = clock;
    }

    /** Grants handed out from now on may issue up to {@code ceilingMillis} and are never renewed. */
    public synchronized void boundNewGrants(final long ceilingMillis) {
        ceilingOfNewGrants = ceilingMillis;
    }

    /** A new lease of the pool, not acquired yet. */
    public synchronized PoolLease open() {
        PoolLease lease = new PoolLease();
        opened.add(lease);
        return lease;
    }

    /** Takes a number for someone outside the test's generator (another instance). */
    public synchronized int occupy() {
        PoolLease other = open();
        return other.currentGrant().workerId();
    }

    /**
     * A previous holder of the number, whose clock ran ahead of this pool's, released it reserved until
     * {@code reservedUntilMillis}: its next grant starts above that.
     */
    public synchronized void releasedAhead(final int workerId, final long reservedUntilMillis) {
        reservedUntil.merge(workerId, reservedUntilMillis, Math::max);
    }

    /** The released reservation of a number, or empty when it was never released. */
    public synchronized Optional<Long> reservedUntil(final int workerId) {
        return Optional.ofNullable(reservedUntil.get(workerId));
    }

    /** The numbers held now. */
    public synchronized List<Integer> held() {
        return new ArrayList<>(holders.keySet());
    }

    public synchronized List<PoolLease> opened() {
        return new ArrayList<>(opened);
    }

    /** One lease of the pool. */
    public final class PoolLease implements WorkerLease {

        private LeaseGrant grant;

        private boolean closed;

        @Override
        public LeaseGrant currentGrant() {
            synchronized (MemoryLeasePool.this) {
                if (closed) {
                    throw new LeaseUnavailableException("test pool lease closed");
                }
                if (grant != null && !grant.isRevoked()) {
                    return grant;
                }
                if (grant != null) {
                    // Its number may be someone else's by now (lost, then claimed): only this lease's own hold ends here.
                    holders.remove(grant.workerId(), this);
                }
                for (int number = 0; number < size; number++) {
                    if (!holders.containsKey(number)) {
                        long floor = Math.max(clock.millis(), reservedUntil.getOrDefault(number, Long.MIN_VALUE) + 1);
                        grant = new LeaseGrant(number, floor, ceilingOfNewGrants, "worker id " + number + " of the test pool");
                        holders.put(number, this);
                        return grant;
                    }
                }
                throw new LeaseUnavailableException("test pool exhausted");
            }
        }

        /** The grant held, without acquiring. */
        public LeaseGrant grant() {
            synchronized (MemoryLeasePool.this) {
                return grant;
            }
        }

        public boolean isClosed() {
            synchronized (MemoryLeasePool.this) {
                return closed;
            }
        }

        /**
         * Loses the number as a registry would on expiry: the grant is revoked, and the number's next holder starts
         * above everything this one could have issued (its ceiling; here, the high-water mark when sealed).
         */
        public void lose() {
            synchronized (MemoryLeasePool.this) {
                long highWater = grant.sealForRelease("lost (test)");
                reservedUntil.merge(grant.workerId(), highWater, Math::max);
                holders.remove(grant.workerId());
            }
        }

        /**
         * The number's record expires in the registry before this lease notices (its renewals failed, and no id asked
         * for its grant since): the grant stays in force here, bounded by its ceiling, while the number is free for the
         * next holder, whose grant starts above that ceiling.
         */
        public void expireUnnoticed() {
            synchronized (MemoryLeasePool.this) {
                if (grant.ceilingMillis() == LeaseGrant.UNBOUNDED) {
                    throw new IllegalStateException("a grant without a ceiling never expires: bound new grants first");
                }
                reservedUntil.merge(grant.workerId(), grant.ceilingMillis(), Math::max);
                holders.remove(grant.workerId());
            }
        }

        @Override
        public Optional<WorkerLease> openSibling() {
            return Optional.of(open());
        }

        @Override
        public boolean opensSiblings() {
            return true;
        }

        @Override
        public OptionalInt freeWorkerIds() {
            synchronized (MemoryLeasePool.this) {
                return OptionalInt.of(size - holders.size());
            }
        }

        @Override
        public String describe() {
            return "test pool of " + size;
        }

        @Override
        public void close() {
            synchronized (MemoryLeasePool.this) {
                if (closed) {
                    return;
                }
                closed = true;
                if (grant != null && holders.get(grant.workerId()) == this) {
                    long highWater = grant.sealForRelease("released (test)");
                    reservedUntil.merge(grant.workerId(), highWater, Math::max);
                    holders.remove(grant.workerId());
                }
            }
        }
    }
}
