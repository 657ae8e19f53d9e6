package org.snowkey.keygen.generator;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Instant;

import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.HighWaterSource;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.WorkerLease;

/**
 * The id space of one worker lease: the high counter {@code h = t * 2^(S-L) + high sequence} that every stream of
 * the generator draws the upper part of its ids from, one counter per lease grant (docs/design.md, "One id space per
 * worker id"). No two ids of a worker id share a value of {@code h}, so ids are unique across all tables and
 * key generators issuing on it, whatever their low bits; the streams keep only their low-bit cycle.
 *
 * <p>All the rules of the historical clock live here, once per worker id: never past the wall clock, never past the
 * lease ceiling, the time cache and its cap, the successor's floor, a batch as one compare-and-set, failing closed
 * on a revoked grant, and sealing the old counter when the lease hands out a new grant.
 */
final class IdSpace {

    private final WorkerLease lease;

    private final IssuePolicy policy;

    private final IdLayout layout;

    private volatile GrantCounter grantCounter;

    IdSpace(final WorkerLease lease, final IssuePolicy policy) {
        this.lease = lease;
        this.policy = policy;
        this.layout = policy.layout();
    }

    /**
     * Reserves {@code count} consecutive high counter values in one atomic step, on the grant in force.
     *
     * @return the reservation: the grant's worker id and the last high counter value reserved
     */
    Reservation reserve(final int count) {
        while (true) {
            GrantCounter current = currentCounter();
            long last = current.reserve(count);
            if (last != GrantCounter.RETRY) {
                return new Reservation(current.workerId, last);
            }
        }
    }

    /** How far the logical timestamp lags the wall clock: the ids a burst can take at once, in ms. */
    long timeCacheMillis() {
        GrantCounter current = grantCounter;
        if (current == null) {
            return 0;
        }
        return policy.timeCacheOf(policy.nowLogical() - layout.timestampOfHigh(current.lastCounter()));
    }

    private GrantCounter currentCounter() {
        LeaseGrant grant = lease.currentGrant();
        GrantCounter current = grantCounter;
        if (current != null && current.grant == grant) {
            return current;
        }
        return moveToCurrentGrant();
    }

    /**
     * Moves the id space to the grant in force, under this object's lock. Two rules keep a worker id from issuing an
     * id twice across a lease change (docs/design.md, "Streams across lease changes"):
     * <ol>
     *   <li>The grant is read again here, never taken from the caller: a caller may have read it, then paused while
     *       the grant was revoked and replaced and the id space moved on. Moving back to that stale grant, and from it
     *       to the new grant again, would open a second counter on the new grant.</li>
     *   <li>The counter being replaced is sealed first and the new one starts after its last value: a thread still
     *       inside the old counter's {@code reserve} fails its compare-and-set and retries on the new counter, so at
     *       most one counter issues at any time, and the ids of every stream keep increasing.</li>
     * </ol>
     * The lease may block here to acquire a grant; every stream would have to wait for it anyway.
     */
    private synchronized GrantCounter moveToCurrentGrant() {
        LeaseGrant grant = lease.currentGrant();
        GrantCounter previous = grantCounter;
        if (previous != null && previous.grant == grant) {
            return previous;
        }
        long start = layout.toLogical(Math.max(policy.clock().preciseMillis(), grant.floorMillis()));
        if (previous != null) {
            long previousLast = previous.sealCounter();
            // Continue after everything issued on the previous grant, in a fresh millisecond.
            start = Math.max(start, layout.timestampOfHigh(previousLast) + 1);
        }
        GrantCounter next = new GrantCounter(grant, layout.highCounterAt(start) - 1);
        if (!grant.attach(next)) {
            // Released meanwhile: the counter issues nothing, and the next call finds the lease closed.
            next.sealCounter();
        }
        grantCounter = next;
        return next;
    }

    /** What one reservation got: the worker id of its grant and the last high counter value reserved. */
    record Reservation(int workerId, long lastHigh) {
    }

    /** The high counter of one lease grant. */
    private final class GrantCounter implements HighWaterSource {

        static final long RETRY = Long.MIN_VALUE;

        /** Counter value of a grant counter frozen by a release or a move: every compare-and-set against it fails. */
        private static final long SEALED = Long.MAX_VALUE;

        private static final VarHandle COUNTER;

        static {
            try {
                COUNTER = MethodHandles.lookup().findVarHandle(GrantCounter.class, "counter", long.class);
            } catch (final ReflectiveOperationException ex) {
                throw new ExceptionInInitializerError(ex);
            }
        }

        private final LeaseGrant grant;

        private final int workerId;

        private final long startCounter;

        /** The high counter of the last id issued. */
        @SuppressWarnings("unused")
        private volatile long counter;

        /** The last counter before sealing, kept so that the next grant counter continues after it. */
        private volatile long sealedAt;

        GrantCounter(final LeaseGrant grant, final long startCounter) {
            this.grant = grant;
            this.workerId = grant.workerId();
            this.startCounter = startCounter;
            this.counter = startCounter;
            this.sealedAt = startCounter;
        }

        long lastCounter() {
            long current = (long) COUNTER.getVolatile(this);
            return current == SEALED ? sealedAt : current;
        }

        /**
         * Reserves {@code count} high counter values in one compare-and-set.
         *
         * @return the last value reserved, or {@link #RETRY} when this counter can no longer issue
         */
        long reserve(final int count) {
            while (true) {
                long last = (long) COUNTER.getVolatile(this);
                if (last == SEALED || grant.isRevoked()) {
                    return RETRY;
                }
                long base = last;
                long now = policy.nowLogical();
                long cacheFloor = policy.timeCacheFloor(now);
                if (layout.timestampOfHigh(last) < cacheFloor) {
                    // Idle longer than the cache cap: drop the stale cache in whole milliseconds, so that decoded
                    // timestamps stay near real time. Never so far that the batch would end ahead of the clock.
                    // The low bits are each table's own cycle, so this jump leaves id % 2^L balanced.
                    long jump = layout.highCounterAt(cacheFloor - layout.timestampOfHigh(last));
                    long ahead = layout.timestampOfHigh(last + jump + count) - now;
                    if (ahead > 0) {
                        jump = Math.max(0, jump - layout.highCounterAt(ahead));
                    }
                    base = last + jump;
                }
                long next = base + count;
                long timestamp = layout.timestampOfHigh(next);
                if (timestamp > now && timestamp > policy.preciseNowLogical()) {
                    if (last == startCounter) {
                        // A counter that issued nothing yet may start ahead of this clock (its floor lies ahead): wait
                        // for its first millisecond only within the tolerance. Beyond it, a batch waits like a burst.
                        policy.awaitStart(layout.timestampOfHigh(startCounter + 1), grant);
                        policy.awaitClock(timestamp, Long.MIN_VALUE);
                    } else {
                        policy.awaitClock(timestamp, layout.timestampOfHigh(last));
                    }
                    continue;
                }
                if (timestamp > IdLayout.MAX_TIMESTAMP) {
                    throw new IdUnavailableException("SnowKey cannot issue an id: the 41 timestamp bits ran out at "
                            + Instant.ofEpochMilli(layout.toWallClock(IdLayout.MAX_TIMESTAMP)) + "; configure a later epoch");
                }
                if (layout.toWallClock(timestamp) > grant.ceilingMillis()) {
                    if (!policy.awaitCeiling(grant, layout.toWallClock(timestamp))) {
                        return RETRY;
                    }
                    continue;
                }
                if (COUNTER.compareAndSet(this, last, next)) {
                    return next;
                }
            }
        }

        /**
         * Freezes the counter and returns its last value. A lease release and a move to the next grant may seal the
         * same counter at once: the lock makes the second sealer wait until the first has recorded the value it froze.
         */
        synchronized long sealCounter() {
            long last = (long) COUNTER.getAndSet(this, SEALED);
            if (last != SEALED) {
                sealedAt = last;
            }
            return sealedAt;
        }

        @Override
        public long seal() {
            return layout.toWallClock(layout.timestampOfHigh(sealCounter()));
        }
    }

    @Override
    public String toString() {
        return "IdSpace[" + layout + " on " + lease.describe() + "]";
    }
}
