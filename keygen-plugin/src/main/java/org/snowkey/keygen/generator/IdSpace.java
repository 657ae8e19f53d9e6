package org.snowkey.keygen.generator;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.ListIterator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;

import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.HighWaterSource;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.WorkerLease;

/**
 * The id space of one worker lease: the high counter {@code h = t * 2^(S-L) + high sequence} that every stream of
 * the generator draws the upper part of its ids from (docs/design.md, "One id space per worker id"), one counter per
 * set of holdings. No two ids of a worker id share a value of {@code h}, so ids are unique across all tables and
 * key generators issuing on it, whatever their low bits; the streams keep only their low-bit cycle.
 *
 * <p>The id space issues on the scope's lease (the primary holding) and on the extra worker ids a hot generator
 * leased besides ({@link Holdings}, docs/design.md, "Holdings: more worker ids for a hot generator"): one combined
 * counter over all of them. Any change of the set (the primary's grant replaced, an extra added, given back or
 * lost) seals the counter and starts the next in a later millisecond.
 *
 * <p>All the rules of the historical clock live here, once per id space: never past the wall clock, never past a
 * holding's lease ceiling, the time cache and its cap, every holding's successor floor, a batch as one
 * compare-and-set, failing closed on a revoked primary grant (an extra in doubt is dropped instead), and sealing the
 * old counter when the set changes.
 */
final class IdSpace {

    private static final MethodHandle RESERVE_ONE_ID;

    /**
     * True to call {@link #reserveOneId} directly rather than through {@link #reserveOneIdOutOfLine}: set for the Lincheck
     * model checks (keygen-plugin/model-checks) only. Lincheck does not analyse code it reaches through a method handle
     * (it stops inside java.lang.invoke), so a lock taken beyond the handle is not modelled there and the interleavings it
     * then reports are not real ones. Both ways run the same method.
     */
    private static final boolean RESERVE_IN_LINE = Boolean.getBoolean("org.snowkey.internal.reserve-in-line");

    static {
        try {
            RESERVE_ONE_ID = MethodHandles.lookup().findVirtual(IdSpace.class, "reserveOneId", MethodType.methodType(long.class, long.class));
        } catch (final ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final WorkerLease lease;

    private final IssuePolicy policy;

    private final IdLayout layout;

    /** Closes the leases of extra holdings this id space dropped, off the caller's thread. */
    private final Executor releases;

    /**
     * Dropped leases handed to {@link #releases} and not closed yet: {@link #close} hands them to its caller too, so a
     * generator closed before the background thread got to them (the shutdown hook) still releases their numbers.
     */
    private final Set<WorkerLease> releasing = ConcurrentHashMap.newKeySet();

    /** The extra holdings, each on a lease of its own from the primary lease's pool; guarded by this object's lock. */
    private final List<Extra> extras = new ArrayList<>();

    /** Set by {@link #close}: no extra holding is added any more. Guarded by this object's lock. */
    private boolean closed;

    /** Calls that waited because they had run ahead of the clock: the demand signal that grows the holdings. */
    private final LongAdder capWaits = new LongAdder();

    private volatile GrantCounter grantCounter;

    /**
     * {@link #reserveOneId} bound to this id space: how {@link #nextId} calls it, so that the JIT never inlines the
     * reservation into the id path (it does not see through a method handle that is not a constant). Inlined, it made
     * {@code nextId}'s own compiled code bigger than the JIT inlines into a caller (InlineSmallCode, 2,500 bytes), and
     * once {@code nextId} had been compiled on its own, every id paid a real call: a burst after idle took twice as
     * long. A plain call does not keep it out: where the call is frequent (while the time cache is spent, every call
     * reserves) the JIT inlines callees of up to 325 bytecodes, and its profile decides. One reservation in up to
     * {@value GrantCounter#MAX_RUN} ids pays the handle's few nanoseconds.
     */
    private final MethodHandle reserveOneIdOutOfLine;

    IdSpace(final WorkerLease lease, final IssuePolicy policy, final Executor releases) {
        this.lease = lease;
        this.policy = policy;
        this.layout = policy.layout();
        this.releases = releases;
        this.reserveOneIdOutOfLine = RESERVE_ONE_ID.bindTo(this);
    }

    /**
     * The id of one call: one combined counter value, composed with the calling stream's cycle position. Kept apart
     * from {@link #reserve} so that a single id allocates nothing.
     *
     * <p>Only the calling thread's run is tried here; everything else is {@link #reserveOneId}, reached through
     * {@link #reserveOneIdOutOfLine}. This method is what every caller inlines.
     */
    long nextId(final long cycle) {
        GrantCounter current = grantCounter;
        if (current != null) {
            long fromRun = current.takeFromRun();
            if (fromRun != GrantCounter.NO_RUN) {
                return current.holdings.compose(fromRun, cycle);
            }
        }
        if (RESERVE_IN_LINE) {
            return reserveOneId(cycle);
        }
        try {
            return (long) reserveOneIdOutOfLine.invokeExact(cycle);
        } catch (final RuntimeException | Error ex) {
            throw ex;
        } catch (final Throwable ex) {
            throw new AssertionError("reserveOneId declares no checked exception", ex);
        }
    }

    /** {@link #nextId} without a run to issue from: one compare-and-set, which may reserve the thread a run. */
    private long reserveOneId(final long cycle) {
        GrantCounter current = currentCounter();
        while (true) {
            long last = current.reserveOne();
            if (last != GrantCounter.RETRY) {
                return current.holdings.compose(last, cycle);
            }
            // Sealed, revoked or a holding dropped: the slow path re-reads the grant under the lock.
            current = moveToCurrentGrant();
        }
    }

    /**
     * Reserves {@code count} consecutive combined counter values in one atomic step, on the holdings in force.
     *
     * @return the reservation: the holdings and the last combined counter value reserved
     */
    Reservation reserve(final int count) {
        GrantCounter current = currentCounter();
        while (true) {
            long last = current.reserve(count);
            if (last != GrantCounter.RETRY) {
                return new Reservation(current.holdings, last);
            }
            current = moveToCurrentGrant();
        }
    }

    /** How far the logical timestamp lags the wall clock: the ids a burst can take at once, in ms. */
    long timeCacheMillis() {
        GrantCounter current = grantCounter;
        if (current == null) {
            return 0;
        }
        return policy.timeCacheOf(policy.nowLogical() - current.holdings.timestampOf(current.lastCounter()));
    }

    /** Calls that had to wait for the clock since start because the counter had caught up with it. */
    long capWaits() {
        return capWaits.sum();
    }

    /** The worker ids issued on now, by rank (empty before the first id). */
    int[] workerIds() {
        GrantCounter current = grantCounter;
        return current == null ? new int[0] : current.holdings.workerIds();
    }

    /**
     * The grants issued on now, by rank (empty before the first id): what a checker needs to tell which grant an id of a
     * given worker id came from.
     */
    List<LeaseGrant> grants() {
        GrantCounter current = grantCounter;
        List<LeaseGrant> grants = new ArrayList<>();
        if (current != null) {
            for (int rank = 0; rank < current.holdings.count(); rank++) {
                grants.add(current.holdings.grant(rank));
            }
        }
        return grants;
    }

    /** How many holdings the id space issues on now (1 before the first id). */
    synchronized int holdingCount() {
        return 1 + extras.size();
    }

    /** The primary lease: the scope's. */
    WorkerLease lease() {
        return lease;
    }

    /**
     * The counter in force. The lease is not asked on the id path: every end of a grant seals the counter (a revocation
     * for a loss, an expiry noticed or a release: {@link HighWaterSource#revoked}), and a grant not renewed in time is
     * bounded by its ceiling, which is never above its expiry ({@code reservedUntil <= expiresAt}). A sealed counter sends
     * the next call to {@link #moveToCurrentGrant}, which asks the lease.
     */
    private GrantCounter currentCounter() {
        GrantCounter current = grantCounter;
        return current != null ? current : moveToCurrentGrant();
    }

    /**
     * Moves the id space to the primary grant in force, under this object's lock. Two rules keep a worker id from
     * issuing an id twice across a lease change (docs/design.md, "Streams across lease changes"):
     * <ol>
     *   <li>The grant is read again here, never taken from the caller: a caller may have read it, then paused while
     *       the grant was revoked and replaced and the id space moved on. Moving back to that stale grant, and from it
     *       to the new grant again, would open a second counter on the new grant.</li>
     *   <li>The counter being replaced is sealed first and the new one starts after its last value: a thread still
     *       inside the old counter's {@code reserve} fails its compare-and-set and retries on the new counter, so at
     *       most one counter issues at any time, and the ids of every stream keep increasing.</li>
     * </ol>
     * A counter sealed under the same primary grant (an extra holding's lease released or lost) is replaced too.
     * The lease may block here to acquire a grant; every stream would have to wait for it anyway.
     */
    private synchronized GrantCounter moveToCurrentGrant() {
        LeaseGrant grant = lease.currentGrant();
        GrantCounter previous = grantCounter;
        if (previous != null && previous.primaryGrant == grant && !previous.isSealed()) {
            return previous;
        }
        return replaceCounter(grant);
    }

    /**
     * Replaces a counter idle for longer than the time cache's cap by one that starts in millisecond {@code startLogical}
     * (behind the clock by the cap), unless the id space moved on meanwhile. A jump on the same counter would skip values
     * that each holding's high-water mark counts as issued ({@link Holdings#lastOfRank}): a holding given back would then
     * write a later millisecond than its last id.
     */
    private synchronized void restartAfterIdle(final GrantCounter idle, final long startLogical) {
        if (grantCounter == idle && !idle.isSealed()) {
            replaceCounter(idle.primaryGrant, startLogical);
        }
    }

    /**
     * Seals the counter in force and starts the next on {@code primary} and every extra holding whose grant still
     * stands (the others are dropped and their leases closed), in a millisecond after everything the sealed counter
     * issued and at or above every holding's floor. Called under this object's lock.
     */
    private GrantCounter replaceCounter(final LeaseGrant primary) {
        return replaceCounter(primary, layout.toLogical(policy.clock().preciseMillis()));
    }

    /** {@link #replaceCounter(LeaseGrant)} in millisecond {@code startLogical} or later (never before a holding's floor). */
    private GrantCounter replaceCounter(final LeaseGrant primary, final long startLogical) {
        dropRevokedExtras(primary);
        GrantCounter previous = grantCounter;
        long previousLast = previous == null ? Long.MIN_VALUE : previous.sealCounter();
        List<LeaseGrant> grants = new ArrayList<>();
        grants.add(primary);
        long floor = primary.floorMillis();
        for (Extra each : extras) {
            grants.add(each.grant);
            floor = Math.max(floor, each.grant.floorMillis());
        }
        Holdings holdings = Holdings.of(layout, grants);
        long start = Math.max(startLogical, layout.toLogical(floor));
        if (previous != null) {
            // Continue after everything issued on the previous counter, in a fresh millisecond.
            start = Math.max(start, previous.holdings.timestampOf(previousLast) + 1);
        }
        GrantCounter next = new GrantCounter(primary, holdings, holdings.counterAt(start) - 1);
        if (previous != null) {
            // Sealed for good: its grants keep what it issued, not the counter (nor, through it, the grants it held).
            previous.settle();
        }
        for (int rank = 0; rank < holdings.count(); rank++) {
            if (!holdings.grant(rank).attach(next.sources[rank])) {
                // Released meanwhile: the counter issues nothing, and the next call finds the lease closed (the
                // primary) or drops the holding (an extra: its grant was revoked by the release).
                next.sealCounter();
            }
        }
        grantCounter = next;
        return next;
    }

    /**
     * Drops the extras whose grant was revoked, and an extra on the worker id of the primary or of an earlier extra: a
     * lease of this id space may have claimed a number whose expiry an extra's lease has not noticed yet (its grant is
     * then bounded by its ceiling, below the new grant's floor, so either is safe, but one counter issues on a worker id
     * once).
     */
    private void dropRevokedExtras(final LeaseGrant primary) {
        Set<Integer> workerIds = new HashSet<>();
        workerIds.add(primary.workerId());
        // Newest first (extras are appended): of two extras on one number the newer one, whose lease is in force, stays.
        for (ListIterator<Extra> each = extras.listIterator(extras.size()); each.hasPrevious();) {
            Extra extra = each.previous();
            if (extra.grant.isRevoked() || !workerIds.add(extra.grant.workerId())) {
                each.remove();
                releaseLater(extra.lease);
            }
        }
    }

    /**
     * Drops an extra holding that is in doubt (its grant revoked, or its ceiling reached without a renewal) from the
     * counter that found it, unless the id space moved on meanwhile; the lease is closed in the background. The stream
     * goes on issuing from the other holdings.
     */
    private synchronized void dropInDoubt(final GrantCounter counter, final LeaseGrant inDoubt) {
        if (grantCounter != counter) {
            return;
        }
        for (Iterator<Extra> each = extras.iterator(); each.hasNext();) {
            Extra extra = each.next();
            if (extra.grant == inDoubt) {
                each.remove();
                replaceCounter(counter.primaryGrant);
                releaseLater(extra.lease);
                return;
            }
        }
    }

    /**
     * Adds extra holdings, each the grant in force of a lease of its own from the primary's pool, and starts the next
     * counter over all holdings. A lease whose grant starts ahead of this clock is given back instead.
     *
     * @return false when the id space is closing: the caller closes the leases
     */
    boolean addHoldings(final List<WorkerLease> leases) {
        List<Extra> added = new ArrayList<>();
        long now = policy.clock().preciseMillis();
        for (WorkerLease each : leases) {
            LeaseGrant grant;
            try {
                grant = each.currentGrant();
            } catch (final RuntimeException ex) {
                // Lost since the caller acquired it, and not acquired again: an extra is optional. Failing here instead
                // would leave the other leases open with nobody to close them.
                releaseLater(each);
                continue;
            }
            if (grant.floorMillis() > now) {
                // Its previous holder's clock ran ahead of ours: the next counter would have to wait for this floor, and
                // every stream with it. An extra is optional; give it back instead.
                releaseLater(each);
            } else {
                added.add(new Extra(each, grant));
            }
        }
        synchronized (this) {
            if (closed) {
                return false;
            }
            if (added.isEmpty()) {
                return true;
            }
            extras.addAll(added);
            replaceCounter(lease.currentGrant());
            return true;
        }
    }

    /**
     * Gives back the {@code count} most recently added extra holdings: the counter moves on without them first, so
     * their releases write the exact high-water marks. It moves on under the primary grant it had, as a drop does: the
     * lease is not asked for its grant here, since a primary lost and not acquired again would fail this call with the
     * removed leases nowhere to be closed (a revoked primary grant moves the next call to the lease's new one).
     *
     * @return the leases to close
     */
    synchronized List<WorkerLease> removeHoldings(final int count) {
        List<WorkerLease> removed = new ArrayList<>();
        while (removed.size() < count && !extras.isEmpty()) {
            removed.add(extras.remove(extras.size() - 1).lease);
        }
        GrantCounter current = grantCounter;
        if (current != null && !removed.isEmpty()) {
            replaceCounter(current.primaryGrant);
        }
        return removed;
    }

    /** Drops every extra holding whose grant was revoked since the counter started (a periodic sweep). */
    void dropRevokedHoldings() {
        GrantCounter current = grantCounter;
        if (current == null) {
            return;
        }
        for (int rank = 0; rank < current.holdings.count(); rank++) {
            LeaseGrant grant = current.holdings.grant(rank);
            if (grant != current.primaryGrant && grant.isRevoked()) {
                dropInDoubt(current, grant);
                return;
            }
        }
    }

    /**
     * Stops adding holdings and gives back every extra one; the primary lease is the owner's to close. Ids issue on the
     * primary alone until it closes.
     */
    List<WorkerLease> close() {
        synchronized (this) {
            closed = true;
            List<WorkerLease> removed = new ArrayList<>();
            for (Extra each : extras) {
                removed.add(each.lease);
            }
            extras.clear();
            GrantCounter current = grantCounter;
            if (current != null && !removed.isEmpty()) {
                // The next call starts a counter on the primary alone, after everything this one issued.
                current.sealCounter();
            }
            // Closing a lease twice is harmless: the background thread may get to one of these at the same time.
            removed.addAll(releasing);
            return removed;
        }
    }

    private void releaseLater(final WorkerLease extra) {
        releasing.add(extra);
        releases.execute(() -> {
            try {
                extra.close();
            } finally {
                releasing.remove(extra);
            }
        });
    }

    /**
     * Counter values one thread reserved in one compare-and-set to issue one by one: {@code next..end}, the counter standing
     * at {@code end}. Only {@code owner} reads or writes {@code next}.
     */
    private static final class Run {

        private final Thread owner;

        private final long end;

        /** The wall clock millisecond of every value of the run. */
        private final long millis;

        private long next;

        Run(final Thread owner, final long next, final long end, final long millis) {
            this.owner = owner;
            this.next = next;
            this.end = end;
            this.millis = millis;
        }
    }

    /** What one reservation got: the holdings it was issued on and the last combined counter value reserved. */
    record Reservation(Holdings holdings, long last) {
    }

    /** An extra holding: a lease of its own and the grant it issues on. */
    private record Extra(WorkerLease lease, LeaseGrant grant) {
    }

    /** The combined counter of one set of holdings. */
    private final class GrantCounter {

        static final long RETRY = Long.MIN_VALUE;

        /** The careful path's answer when the common case is to be tried again (after a wait or a lost race). */
        private static final long AGAIN = Long.MIN_VALUE + 1;

        /**
         * Counter value of a counter frozen by a release, a revocation or a move: every compare-and-set against it fails,
         * and the id path sends it the careful way (which returns RETRY).
         */
        private static final long SEALED = Long.MIN_VALUE;

        /** {@link #takeFromRun}'s answer when the calling thread has no run to issue from. */
        static final long NO_RUN = Long.MIN_VALUE;

        /** The longest run of values one thread reserves in one compare-and-set. */
        private static final int MAX_RUN = 256;

        private static final VarHandle COUNTER;

        static {
            try {
                COUNTER = MethodHandles.lookup().findVarHandle(GrantCounter.class, "counter", long.class);
            } catch (final ReflectiveOperationException ex) {
                throw new ExceptionInInitializerError(ex);
            }
        }

        private final LeaseGrant primaryGrant;

        private final Holdings holdings;

        private final long startCounter;

        /**
         * The id path's bounds, precomputed: a reading of the clock {@code m} is combined counter value
         * {@code m * perMillisecond - epochCounter}, and the time cache spans {@code timeCacheSpan} values.
         */
        private final WallClock clock;

        private final long perMillisecond;

        private final long epochCounter;

        private final long timeCacheSpan;

        private final long timeCacheCapMillis;

        /** What each holding's grant sees of this counter, by rank (attached when the counter starts). */
        private final HighWaterSource[] sources;

        /** The combined counter of the last id issued. */
        @SuppressWarnings("unused")
        private volatile long counter;

        /** The last counter before sealing, kept so that the next counter continues after it. */
        private volatile long sealedAt;

        /**
         * Values at or above this go the careful way ({@link #issuableLimit}): past a holding's ceiling as last read, or
         * past the timestamp bits. Written racily; any value written was a true limit when it was read.
         */
        private volatile long issuableBelow;

        /** The run of values the thread that reserved it issues from, one at a time, without an atomic step. */
        private volatile Run run;

        /** The thread of the last single-id reservation, and the length of its last run: hints for {@link #runEnd}. */
        private Thread lastCaller;

        private int runLength;

        GrantCounter(final LeaseGrant primaryGrant, final Holdings holdings, final long startCounter) {
            this.primaryGrant = primaryGrant;
            this.holdings = holdings;
            this.startCounter = startCounter;
            this.clock = policy.clock();
            this.perMillisecond = holdings.counterAt(1);
            this.epochCounter = layout.epochMillis() * perMillisecond;
            this.timeCacheSpan = holdings.counterAt(policy.timeCacheCapMillis());
            this.timeCacheCapMillis = policy.timeCacheCapMillis();
            this.counter = startCounter;
            this.sealedAt = startCounter;
            this.sources = new HighWaterSource[holdings.count()];
            for (int each = 0; each < sources.length; each++) {
                sources[each] = sourceOf(each);
            }
            this.issuableBelow = issuableLimit();
        }

        long lastCounter() {
            long current = (long) COUNTER.getVolatile(this);
            return current == SEALED ? sealedAt : current;
        }

        boolean isSealed() {
            return (long) COUNTER.getVolatile(this) == SEALED;
        }

        /**
         * Reserves {@code count} combined counter values in one compare-and-set. The common case (within the time
         * cache, not ahead of the clock, below every holding's ceiling) compares counter values only: no division by the
         * holding count and no read of any grant or lease before the compare-and-set. A revoked grant has sealed the
         * counter ({@link HighWaterSource#revoked}).
         *
         * @return the last value reserved, or {@link #RETRY} when this counter can no longer issue
         */
        long reserve(final int count) {
            // A batch abandons the caller's run: a thread mixing ids and batches starts its runs again at one, so that each
            // batch does not waste the rest of a long run (and with it the time cache).
            lastCaller = null;
            while (true) {
                long last = (long) COUNTER.getVolatile(this);
                long nowCounter = clock.millis() * perMillisecond - epochCounter;
                long next = last + count;
                if (isCommonCase(last, next, nowCounter)) {
                    if (COUNTER.compareAndSet(this, last, next)) {
                        return next;
                    }
                    continue;
                }
                long reserved = reserveCarefully(last, count, policy.nowLogical());
                if (reserved != AGAIN) {
                    return reserved;
                }
            }
        }

        /**
         * {@link #reserve} of one value for a thread without a run to issue from ({@link #takeFromRun}), reserving it a run
         * when it keeps asking ({@link #runEnd}). Apart from {@link #reserve} so that the JIT compiles each with the profile
         * of its own callers (single ids, batches) rather than one mixed profile.
         */
        long reserveOne() {
            while (true) {
                long last = (long) COUNTER.getVolatile(this);
                long nowCounter = clock.millis() * perMillisecond - epochCounter;
                long next = last + 1;
                if (isCommonCase(last, next, nowCounter)) {
                    long runEnd = runEnd(next, nowCounter);
                    if (COUNTER.compareAndSet(this, last, runEnd)) {
                        if (runEnd != next) {
                            run = new Run(Thread.currentThread(), next + 1, runEnd, layout.toWallClock(holdings.timestampOf(next)));
                        }
                        return next;
                    }
                    continue;
                }
                long reserved = reserveCarefully(last, 1, policy.nowLogical());
                if (reserved != AGAIN) {
                    return reserved;
                }
            }
        }

        /**
         * Within the time cache, not ahead of the clock and below every ceiling as last read: the reservation of the values
         * {@code last + 1 .. next} needs nothing but the compare-and-set. A sealed counter goes the careful way, and returns
         * RETRY there. Checked apart: the range check alone does not exclude SEALED, since nowCounter - timeCacheSpan wraps
         * to Long.MIN_VALUE for some allowed layouts, caps and clock readings (W = 1, L = 0, two holdings, the largest cap,
         * the clock 1 ms before the epoch).
         */
        private boolean isCommonCase(final long last, final long next, final long nowCounter) {
            return last != SEALED && last >= nowCounter - timeCacheSpan && next < nowCounter + perMillisecond && next < issuableBelow;
        }

        /**
         * The next value of the calling thread's run, or {@link #NO_RUN}. A value of the run is issued only while the
         * counter still stands at the run's end: any other reservation (another thread's id or batch, this thread's
         * batch) moves the counter past it, and a seal (a release, a revocation, a move to the next counter) freezes it,
         * so the rest of the run is abandoned and nothing issues below what another call issued after it. The counter is
         * read last, after the clock: a run value is issued only if, at the moment that read is made, the counter has
         * issued nothing after the run and has not been sealed, so the id takes its place before every later
         * reservation and before the seal (which accounts for the whole run: the high-water mark covers it).
         */
        long takeFromRun() {
            Run current = run;
            if (current == null || current.owner != Thread.currentThread()) {
                return NO_RUN;
            }
            long value = current.next;
            // The same rules as the common case, for a run that lies in one millisecond: not ahead of the clock (it may have
            // moved back) and within the time cache's cap, 0 <= now - millis <= cap (a negative difference compares as huge).
            if (value > current.end || Long.compareUnsigned(clock.millis() - current.millis, timeCacheCapMillis) > 0
                    || (long) COUNTER.getVolatile(this) != current.end) {
                return NO_RUN;
            }
            current.next = value + 1;
            return value;
        }

        /**
         * Where a run starting at {@code next} ends, or {@code next} for no run. A thread takes a run only when it made
         * the last single-id reservation too (so that threads taking turns do not abandon each other's runs), and the run
         * doubles each time up to {@link #MAX_RUN}; threads taking turns start again at one. The run stays in the time
         * cache (it ends a millisecond behind the clock, so the sustained rate at the clock is never spent on runs
         * abandoned), below every ceiling, and inside the millisecond of {@code next}, which must already have given each
         * holding a value: a run abandoned then leaves every holding's high-water mark in the millisecond of its last id.
         * {@link #lastCaller} and {@link #runLength} are hints written racily: any value gives a safe run.
         */
        private long runEnd(final long next, final long nowCounter) {
            Thread caller = Thread.currentThread();
            if (lastCaller != caller) {
                lastCaller = caller;
                runLength = 1;
                return next;
            }
            int length = Math.min(MAX_RUN, Math.max(1, runLength) << 1);
            runLength = length;
            long millisecondStart = holdings.counterAt(holdings.timestampOf(next));
            if (next - millisecondStart < holdings.count()) {
                return next;
            }
            long end = Math.min(next + length - 1, millisecondStart + perMillisecond - 1);
            end = Math.min(end, Math.min(issuableBelow - 1, nowCounter - perMillisecond - 1));
            return Math.max(end, next);
        }

        /**
         * The rules of the historical clock where the common case does not apply: the time cache's cap, waiting for the
         * clock (or for a counter's first millisecond), the end of the timestamp bits, a holding at its ceiling.
         *
         * @return the last value reserved, {@link #RETRY} when this counter can no longer issue, or {@link #AGAIN}
         */
        private long reserveCarefully(final long last, final int count, final long now) {
            if (last == SEALED) {
                return RETRY;
            }
            long cacheFloor = policy.timeCacheFloor(now);
            // The next value, not the last, is what must not lie behind the cap: a counter restarted there stands at the
            // value before its first millisecond.
            long nextTimestamp = holdings.timestampOf(last + 1);
            if (nextTimestamp < cacheFloor) {
                // Idle longer than the cache cap: drop the stale cache in whole milliseconds, so that decoded timestamps
                // stay near real time. Not by moving this counter past values it never issued (each holding's high-water
                // mark counts every value up to the last as issued): the next counter starts at the first value of the
                // cap's millisecond, or earlier if the batch asking would end ahead of the clock from there. Only forward
                // of the next value: a counter started at it would find the same start again, for ever. The low bits are
                // each table's own cycle, so id % 2^L stays balanced.
                long restartAt = Math.min(cacheFloor, now - holdings.timestampOf(count - 1));
                if (restartAt > nextTimestamp) {
                    restartAfterIdle(this, restartAt);
                    return RETRY;
                }
            }
            long next = last + count;
            long timestamp = holdings.timestampOf(next);
            if (timestamp > now && timestamp > policy.preciseNowLogical()) {
                if (last == startCounter) {
                    // A counter that issued nothing yet may start ahead of this clock (its floor lies ahead): wait
                    // for its first millisecond only within the tolerance. Beyond it, a batch waits like a burst.
                    policy.awaitStart(holdings.timestampOf(startCounter + 1), primaryGrant);
                    policy.awaitClock(timestamp, Long.MIN_VALUE);
                } else {
                    capWaits.increment();
                    policy.awaitClock(timestamp, holdings.timestampOf(last));
                }
                return AGAIN;
            }
            if (timestamp > IdLayout.MAX_TIMESTAMP) {
                throw new IdUnavailableException("SnowKey cannot issue an id: the 41 timestamp bits ran out at "
                        + Instant.ofEpochMilli(layout.toWallClock(IdLayout.MAX_TIMESTAMP)) + "; configure a later epoch");
            }
            if (next >= issuableBelow) {
                // Past the ceilings as last read: read them again (a renewal raised them), and look at the holdings
                // these values go to only if one is still below.
                long limit = issuableLimit();
                issuableBelow = limit;
                if (next >= limit) {
                    LeaseGrant blocking = firstGrantBelow(last + 1, count, layout.toWallClock(timestamp));
                    if (blocking != null) {
                        if (blocking != primaryGrant) {
                            dropInDoubt(this, blocking);
                            return RETRY;
                        }
                        // The lease may have expired unnoticed (its renewals stuck): asked, it revokes and acquires anew, as
                        // every id asked it before the id path stopped asking. Otherwise wait for a renewal.
                        if (lease.currentGrant() != primaryGrant) {
                            return RETRY;
                        }
                        return policy.awaitCeiling(blocking, layout.toWallClock(timestamp)) ? AGAIN : RETRY;
                    }
                }
            }
            return COUNTER.compareAndSet(this, last, next) ? next : AGAIN;
        }

        /**
         * The first combined counter value past the lowest ceiling of the holdings (as read now) or past the last
         * timestamp the layout can carry. Ceilings only rise, so a limit read earlier is never above the true one.
         */
        private long issuableLimit() {
            long ceiling = LeaseGrant.UNBOUNDED;
            for (int rank = 0; rank < holdings.count(); rank++) {
                ceiling = Math.min(ceiling, holdings.grant(rank).ceilingMillis());
            }
            long lastTimestamp = ceiling == LeaseGrant.UNBOUNDED ? IdLayout.MAX_TIMESTAMP : Math.min(IdLayout.MAX_TIMESTAMP, layout.toLogical(ceiling));
            return holdings.counterAt(lastTimestamp + 1);
        }

        /**
         * The first holding among those values {@code first..first+count-1} go to whose grant was revoked or may not
         * issue up to {@code neededWallClock} (its ceiling), or null when every one may.
         */
        private LeaseGrant firstGrantBelow(final long first, final int count, final long neededWallClock) {
            int touched = Math.min(count, holdings.count());
            int firstRank = holdings.rankOf(first);
            for (int i = 0; i < touched; i++) {
                int rank = firstRank + i;
                LeaseGrant grant = holdings.grant(rank < holdings.count() ? rank : rank - holdings.count());
                if (grant.ceilingMillis() < neededWallClock || grant != primaryGrant && grant.isRevoked()) {
                    return grant;
                }
            }
            return null;
        }

        /**
         * Freezes the counter and returns its last value. A lease release and a move to the next counter may seal the
         * same counter at once: the lock makes the second sealer wait until the first has recorded the value it froze.
         */
        synchronized long sealCounter() {
            long last = (long) COUNTER.getAndSet(this, SEALED);
            if (last != SEALED) {
                sealedAt = last;
            }
            return sealedAt;
        }

        /** Hands what this sealed counter issued to each holding's grant, which forgets the counter itself. */
        void settle() {
            for (int rank = 0; rank < sources.length; rank++) {
                holdings.grant(rank).settle(sources[rank]);
            }
        }

        /**
         * What the grant of holding {@code rank} sees of this counter: its revocation seals the counter, and its release
         * sees the last value of its rank.
         */
        private HighWaterSource sourceOf(final int rank) {
            return new HighWaterSource() {
                @Override
                public long seal() {
                    long lastOfRank = holdings.lastOfRank(rank, startCounter + 1, sealCounter());
                    return lastOfRank == Long.MIN_VALUE ? Long.MIN_VALUE : layout.toWallClock(holdings.timestampOf(lastOfRank));
                }

                @Override
                public void revoked() {
                    // One flag for every holding: the id path reads only the counter. The next call moves on under the lock,
                    // to the lease's next grant (the primary revoked) or without the revoked extra.
                    sealCounter();
                }
            };
        }
    }

    @Override
    public String toString() {
        return "IdSpace[" + layout + " on " + lease.describe() + "]";
    }
}
