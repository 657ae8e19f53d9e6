package org.snowkey.benchmarks;

import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalInt;

import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseUnavailableException;
import org.snowkey.keygen.lease.WorkerLease;

/**
 * A pool of worker ids in memory, for the holdings contenders only: a lease registry without I/O, so that a hot
 * generator can lease more worker ids (its leases open siblings) and the benchmark measures issuing, not a registry.
 * It keeps the promise a registry makes to a generator: a number's next grant starts above the high-water mark its
 * last holder released. Grants never expire (no registry to renew with), as a static worker id's.
 */
final class BenchmarkLeasePool {

    private final int size;

    /** The reserved-until of each number released so far; {@code Long.MIN_VALUE} for none. Guarded by this pool. */
    private final long[] reservedUntil;

    /** Whether each number is held now. Guarded by this pool. */
    private final boolean[] held;

    private int free;

    BenchmarkLeasePool(final int size) {
        this.size = size;
        this.reservedUntil = new long[size];
        Arrays.fill(reservedUntil, Long.MIN_VALUE);
        this.held = new boolean[size];
        this.free = size;
    }

    /** A new lease of the pool; it takes a number on its first {@link WorkerLease#currentGrant()}. */
    Lease open() {
        return new Lease();
    }

    /** Numbers nobody holds now. */
    synchronized int free() {
        return free;
    }

    /** One lease of the pool. */
    final class Lease implements WorkerLease {

        /** Read on every id: a volatile read and the grant's revocation flag, as a registry's lease. */
        private volatile LeaseGrant grant;

        /** Guarded by the pool. */
        private boolean closed;

        @Override
        public LeaseGrant currentGrant() {
            LeaseGrant current = grant;
            if (current != null && !current.isRevoked()) {
                return current;
            }
            return acquire();
        }

        private LeaseGrant acquire() {
            synchronized (BenchmarkLeasePool.this) {
                if (closed) {
                    throw new LeaseUnavailableException("benchmark lease " + describe() + " is closed");
                }
                if (grant != null) {
                    return grant;
                }
                for (int number = 0; number < size; number++) {
                    if (!held[number]) {
                        long floor = Math.max(System.currentTimeMillis(), reservedUntil[number] + 1);
                        held[number] = true;
                        free--;
                        grant = new LeaseGrant(number, floor, LeaseGrant.UNBOUNDED, "worker id " + number + " of " + describe());
                        return grant;
                    }
                }
                throw new LeaseUnavailableException("benchmark pool of " + size + " numbers exhausted");
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
            return OptionalInt.of(free());
        }

        @Override
        public String describe() {
            return BenchmarkLeaseProvider.NAME + " pool of " + size;
        }

        /** Releases the number with the exact high-water mark of every stream that issued on it. */
        @Override
        public void close() {
            synchronized (BenchmarkLeasePool.this) {
                if (closed) {
                    return;
                }
                closed = true;
                LeaseGrant current = grant;
                if (current != null) {
                    long highWater = current.sealForRelease("released (benchmark)");
                    reservedUntil[current.workerId()] = Math.max(reservedUntil[current.workerId()], highWater);
                    held[current.workerId()] = false;
                    free++;
                }
            }
        }
    }
}
