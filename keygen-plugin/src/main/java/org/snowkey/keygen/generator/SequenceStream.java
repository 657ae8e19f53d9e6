package org.snowkey.keygen.generator;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.HighWaterSource;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.WorkerLease;

/**
 * One sequence stream: the historical clock of docs/design.md for one table (or for all tables of a scope).
 *
 * <p>State is one counter {@code c = t * 2^S + s} per lease grant. An id costs one compare-and-set that
 * moves the counter by one; a batch of n ids moves it by n. The counter only ever moves forward, so the ids of
 * a stream are strictly increasing for a worker id; when the worker id changes (new lease grant), the
 * stream continues in the next millisecond so that it stays increasing.
 */
public final class SequenceStream {

    private final String name;

    private final WorkerLease lease;

    private final IssuePolicy policy;

    private final IdLayout layout;

    private volatile GrantCounter grantCounter;

    /** Ids issued on grants before the current one; guarded by {@link #countLock}. */
    private long issuedOnEarlierGrants;

    /**
     * Guards the count of earlier grants together with the switch to the next grant. Not the stream's lock: a move
     * holds that while the lease acquires (up to its acquire timeout), and metrics and health checks must not wait.
     */
    private final Object countLock = new Object();

    SequenceStream(final String name, final WorkerLease lease, final IssuePolicy policy) {
        this.name = name;
        this.lease = lease;
        this.policy = policy;
        this.layout = policy.layout();
    }

    public String name() {
        return name;
    }

    /** The next id. */
    public long nextId() {
        while (true) {
            GrantCounter current = currentCounter();
            long last = current.reserve(1);
            if (last != GrantCounter.RETRY) {
                return layout.compose(last, current.workerId);
            }
        }
    }

    /** The next {@code count} ids, consecutive in this stream, reserved in one atomic step. */
    public IdBatch nextIds(final int count) {
        if (count < 1) {
            throw new IllegalArgumentException("a batch holds at least one id, asked for " + count);
        }
        while (true) {
            GrantCounter current = currentCounter();
            long last = current.reserve(count);
            if (last != GrantCounter.RETRY) {
                return new IdBatch(layout, current.workerId, last - count + 1, count);
            }
        }
    }

    /** How far the stream's logical timestamp lags the wall clock: the ids a burst can take at once, in ms. */
    public long timeCacheMillis() {
        GrantCounter current = grantCounter;
        if (current == null) {
            return 0;
        }
        long lastCounter = current.lastCounter();
        return Math.max(0, Math.min(policy.maxTimeCacheMillis(), policy.nowLogical() - layout.timestampOf(lastCounter)));
    }

    /** Ids this stream issued since it was created (for metrics; exact once calls have returned). */
    public long idsIssued() {
        synchronized (countLock) {
            GrantCounter current = grantCounter;
            return issuedOnEarlierGrants + (current == null ? 0 : current.issued());
        }
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
     * Moves the stream to the grant in force, under the stream's lock. Two rules keep one stream from issuing an id
     * twice across a lease change (docs/design.md, "Streams across lease changes"):
     * <ol>
     *   <li>The grant is read again here, never taken from the caller: a caller may have read it, then paused while
     *       the grant was revoked and replaced and the stream moved on. Moving back to that stale grant, and from it
     *       to the new grant again, would open a second counter on the new grant.</li>
     *   <li>The counter being replaced is sealed first and the new one starts after its last counter: a thread still
     *       inside the old counter's {@code reserve} fails its compare-and-set and retries on the new counter, so at
     *       most one counter of the stream issues at any time.</li>
     * </ol>
     * The lease may block here to acquire a grant; threads of this stream would have to wait for it anyway.
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
            start = Math.max(start, layout.timestampOf(previousLast) + 1);
        }
        GrantCounter next = new GrantCounter(grant, layout.counterAt(start) - 1);
        if (!grant.attach(next)) {
            // Released meanwhile: the counter issues nothing, and the next call finds the lease closed.
            next.sealCounter();
        }
        synchronized (countLock) {
            if (previous != null) {
                issuedOnEarlierGrants += previous.issued();
            }
            grantCounter = next;
        }
        return next;
    }

    /** The counter of one stream on one lease grant. */
    private final class GrantCounter implements HighWaterSource {

        static final long RETRY = Long.MIN_VALUE;

        /** Counter value of a grant counter frozen by a release: every compare-and-set against it fails. */
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

        /** The counter of the last id issued. */
        @SuppressWarnings("unused")
        private volatile long counter;

        /** The last counter before sealing, kept so that the next grant counter continues after it. */
        private volatile long sealedAt;

        /** Counter values passed over by time cache jumps: not ids. Changes only after long idleness. */
        private final AtomicLong skipped = new AtomicLong();

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
         * Reserves {@code count} counter values in one compare-and-set.
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
                long cacheFloor = now - policy.maxTimeCacheMillis();
                if (layout.timestampOf(last) < cacheFloor) {
                    // Idle longer than the cache cap: drop the stale cache in whole milliseconds, so that decoded
                    // timestamps stay near real time while the sequence, and with it id % 2^L, continues where it
                    // was (restarting it at 0 would make every id of a slow table even). Never so far that the
                    // batch would end ahead of the clock.
                    long jump = layout.counterAt(cacheFloor - layout.timestampOf(last));
                    long ahead = layout.timestampOf(last + jump + count) - now;
                    if (ahead > 0) {
                        jump = Math.max(0, jump - layout.counterAt(ahead));
                    }
                    base = last + jump;
                }
                long next = base + count;
                long timestamp = layout.timestampOf(next);
                if (timestamp > now && timestamp > policy.preciseNowLogical()) {
                    if (last == startCounter) {
                        // A counter that issued nothing yet may start ahead of this clock (its floor lies ahead): wait
                        // for its first millisecond only within the tolerance. Beyond it, a batch waits like a burst.
                        policy.awaitStart(layout.timestampOf(startCounter + 1), grant);
                        policy.awaitClock(timestamp, Long.MIN_VALUE);
                    } else {
                        policy.awaitClock(timestamp, layout.timestampOf(last));
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
                    if (base != last) {
                        skipped.addAndGet(base - last);
                    }
                    return next;
                }
            }
        }

        long issued() {
            return lastCounter() - startCounter - skipped.get();
        }

        /**
         * Freezes the counter and returns its last value. A lease release and a move of the stream may seal the same
         * counter at once: the lock makes the second sealer wait until the first has recorded the value it froze.
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
            return layout.toWallClock(layout.timestampOf(sealCounter()));
        }
    }

    @Override
    public String toString() {
        return "SequenceStream[" + name + " on " + lease.describe() + "]";
    }
}
