package org.snowkey.keygen.segment;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.keygen.clock.WallClock;

/**
 * The keys of one sequence key (by default one logic table), issued from ranges held in memory: the current range,
 * and the next one, fetched in the background once the current range is {@code segment-prefetch-percent} used
 * (the double buffer; docs/design.md, "Segment mode").
 *
 * <p>Rules that keep keys unique and increasing:
 * <ul>
 *   <li>A key or a batch is one {@code getAndAdd} on the current range's cursor; no two callers get the same slice.</li>
 *   <li>Moving to the next range installs it once: the installer checks, under the lock, that the range it waited for
 *       is still the pending one and the exhausted range still the current one. A caller that finds either changed
 *       simply retries on the range now current.</li>
 *   <li>At most one fetch per sequence is in flight, so ranges arrive in allocation order; a range that does not lie
 *       above every range this sequence had before is refused (the allocator broke its contract) and the sequence
 *       fails closed.</li>
 *   <li>No caller waits on the lock while the allocator does I/O: fetches run on the executor, and a caller with both
 *       buffers empty waits on the fetch itself, up to {@code segment-fetch-timeout-milliseconds}.</li>
 * </ul>
 */
public final class SegmentSequence implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentSequence.class);

    private static final long FIRST_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private static final long LONGEST_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final String key;

    private final RangeAllocator allocator;

    private final SegmentSettings settings;

    private final AdaptiveStep adaptiveStep;

    private final WallClock clock;

    private final Executor fetchExecutor;

    private final Object lock = new Object();

    private volatile Segment current;

    /** The fetch in flight or done but not installed yet (the second buffer); guarded by {@link #lock}. */
    private CompletableFuture<Segment> pending;

    /** Guarded by {@link #lock}. */
    private long step;

    /** When the last fetch started, or -1 before the first; guarded by {@link #lock}. */
    private long lastFetchStartNanos = -1;

    /** Keys handed out from ranges before the current one; guarded by {@link #lock}. */
    private long usedBeforeCurrent;

    /** The last key of the highest range received; written by the one fetch in flight only. */
    private volatile long highestAllocated;

    private volatile boolean closed;

    /** Why the sequence stopped for good (an allocator that broke its contract), or null. */
    private volatile String brokenReason;

    private volatile RuntimeException lastFailure;

    private final SegmentStats stats = new SegmentStats();

    /**
     * @param fetchExecutor runs fetches, which retry until the allocator answers; it must run them on threads of its
     *                      own. One that runs a task in the caller ({@code Runnable::run}, a caller-runs policy) holds
     *                      that caller for a whole allocator outage, past {@code segment-fetch-timeout-milliseconds}:
     *                      fit only for single-threaded simulations and benchmarks whose allocator never fails
     */
    public SegmentSequence(final String key, final RangeAllocator allocator, final SegmentSettings settings, final WallClock clock, final Executor fetchExecutor) {
        this.key = key;
        this.allocator = allocator;
        this.settings = settings;
        this.adaptiveStep = settings.adaptiveStep();
        this.clock = clock;
        this.fetchExecutor = fetchExecutor;
        this.step = settings.minStep();
    }

    public String key() {
        return key;
    }

    /** The next key. */
    public long nextId() {
        while (true) {
            Segment segment = current;
            if (segment != null) {
                long taken = segment.take(1);
                if (taken <= segment.last) {
                    failIfClosed();
                    if (taken == segment.prefetchAt) {
                        prefetch();
                    }
                    return taken;
                }
            }
            moveOn(segment);
        }
    }

    /** {@code count} keys: one atomic step when they fit in the current range, one per range otherwise. */
    public SegmentBatch nextIds(final int count) {
        if (count < 1) {
            throw new IllegalArgumentException("a batch holds at least one key, not " + count);
        }
        Segment segment = current;
        if (segment != null) {
            long start = segment.take(count);
            if (start <= segment.last - count + 1) {
                failIfClosed();
                if (segment.crossesPrefetchPoint(start, count)) {
                    prefetch();
                }
                return SegmentBatch.contiguous(start, count);
            }
            SegmentBatch.Builder pieces = new SegmentBatch.Builder();
            collect(segment, start, count, pieces);
            return finish(segment, count, pieces);
        }
        return finish(null, count, new SegmentBatch.Builder());
    }

    private SegmentBatch finish(final Segment exhausted, final int count, final SegmentBatch.Builder pieces) {
        Segment segment = exhausted;
        while (pieces.count() < count) {
            moveOn(segment);
            segment = current;
            int wanted = count - pieces.count();
            collect(segment, segment.take(wanted), wanted, pieces);
        }
        failIfClosed();
        return pieces.build();
    }

    private void collect(final Segment segment, final long start, final int wanted, final SegmentBatch.Builder pieces) {
        if (start > segment.last) {
            return;
        }
        int got = (int) Math.min(wanted, segment.last - start + 1);
        pieces.add(start, got);
        if (segment.crossesPrefetchPoint(start, got)) {
            prefetch();
        }
    }

    private void prefetch() {
        Fetch started = null;
        synchronized (lock) {
            if (noFetchUnderWay() && !closed && brokenReason == null) {
                started = startFetch();
            }
        }
        if (started != null) {
            launch(started);
        }
    }

    /** Installs the next range once {@code exhausted} (null before the first range) is used up. */
    private void moveOn(final Segment exhausted) {
        CompletableFuture<Segment> fetch;
        Fetch started = null;
        synchronized (lock) {
            if (current != exhausted) {
                return;
            }
            failIfStopped();
            if (noFetchUnderWay()) {
                started = startFetch();
            }
            fetch = pending;
        }
        if (started != null) {
            launch(started);
        }
        Segment next = await(fetch);
        synchronized (lock) {
            // Closed while the fetch was in flight: the range came too late for this sequence. Installed, it would issue
            // keys below those a later sequence of the same key (the scope joined again) has issued meanwhile in this JVM.
            if (closed) {
                throw closedException();
            }
            if (current != exhausted || pending != fetch) {
                return;
            }
            pending = null;
            usedBeforeCurrent += exhausted == null ? 0 : exhausted.used();
            current = next;
        }
    }

    /**
     * Whether a new fetch may start: none is pending, or the pending one ended without a range (the executor refused
     * it, the allocator threw an Error). Such a fetch is never installed, and keeping it pending would make every later
     * caller wait out the fetch timeout on it forever; its waiters have had its failure. Caller holds the lock.
     */
    private boolean noFetchUnderWay() {
        return pending == null || pending.isCompletedExceptionally();
    }

    /** A fetch decided under the lock and launched by the thread that decided it, after it let the lock go. */
    private record Fetch(CompletableFuture<Segment> future, long size) {
    }

    /**
     * Makes the one fetch of this sequence pending and sizes it; the caller holds the lock, has checked that none is
     * pending, and launches it after releasing the lock (an executor that runs tasks in the caller must not run
     * allocator I/O under the lock).
     */
    private Fetch startFetch() {
        long now = clock.nanoTime();
        step = adaptiveStep.next(step, lastFetchStartNanos < 0 ? -1 : now - lastFetchStartNanos);
        lastFetchStartNanos = now;
        pending = new CompletableFuture<>();
        return new Fetch(pending, step);
    }

    private void launch(final Fetch fetch) {
        try {
            fetchExecutor.execute(() -> fetchUntilDone(fetch.future(), fetch.size()));
        } catch (final RuntimeException ex) {
            // Refused (a full or shut-down pool): fail this fetch so its waiters hear why and the next caller starts another.
            fetch.future().completeExceptionally(ex);
        }
    }

    /** Runs one fetch; whatever ends it, its future is completed, or every later caller would wait on it in vain. */
    private void fetchUntilDone(final CompletableFuture<Segment> fetch, final long size) {
        try {
            fetchRange(fetch, size);
        } catch (final Throwable ex) {
            fetch.completeExceptionally(ex);
            throw ex;
        }
    }

    /** Asks the allocator until it answers or the sequence closes: an outage is ridden out on the buffers meanwhile. */
    private void fetchRange(final CompletableFuture<Segment> fetch, final long size) {
        long retryNanos = FIRST_RETRY_NANOS;
        while (!closed) {
            long started = clock.nanoTime();
            NumberRange range;
            try {
                range = allocator.allocate(key, size);
                if (range == null) {
                    // A broken allocator: retried like any failed call rather than an NPE that ends the fetch.
                    throw new RangeUnavailableException(allocator.describe() + " returned no range for key '" + key + "'");
                }
            } catch (final RuntimeException ex) {
                if (lastFailure == null) {
                    LOG.warn("SnowKey segment sequence '{}' cannot fetch a range from {} (retrying while {} keys remain): {}", key, allocator.describe(),
                            remaining(), ex.getMessage());
                }
                lastFailure = ex;
                stats.fetchFailed();
                clock.parkNanos(retryNanos);
                retryNanos = Math.min(LONGEST_RETRY_NANOS, retryNanos * 2);
                continue;
            }
            if (range.first() <= highestAllocated) {
                brokenReason = "allocator " + allocator.describe() + " returned range " + range + " for key '" + key
                        + "', which does not lie above range ..." + highestAllocated + " it returned before: two processes may hold the same keys."
                        + " Check the allocator's table or node (docs/design.md, \"Segment mode\")";
                LOG.error("SnowKey segment sequence '{}' stops: {}", key, brokenReason);
                fetch.completeExceptionally(new RangeUnavailableException(brokenReason));
                return;
            }
            highestAllocated = range.last();
            if (lastFailure != null) {
                LOG.info("SnowKey segment sequence '{}' fetches ranges from {} again", key, allocator.describe());
                lastFailure = null;
            }
            stats.fetched(clock.nanoTime() - started);
            fetch.complete(new Segment(range, settings.prefetchPercent()));
            return;
        }
        fetch.completeExceptionally(closedException());
    }

    /**
     * Waits for the fetch, up to the fetch timeout in real time. The one wait of segment mode that does not go through
     * {@link WallClock#parkNanos}: it waits for another thread's I/O, not for the clock, and issues nothing while it
     * waits, so virtual time buys nothing here (the simulator completes a fetch before a caller needs it).
     */
    private Segment await(final CompletableFuture<Segment> fetch) {
        try {
            return fetch.get(settings.fetchTimeoutMillis(), TimeUnit.MILLISECONDS);
        } catch (final TimeoutException ex) {
            RuntimeException cause = lastFailure;
            throw new RangeUnavailableException("SnowKey segment sequence '" + key + "' has no keys left and no range came from " + allocator.describe()
                    + " within " + SegmentPropertyNames.FETCH_TIMEOUT_MILLISECONDS + " = " + settings.fetchTimeoutMillis() + " ms"
                    + (cause == null ? " (the allocator has not answered yet)" : ": " + cause.getMessage()), cause);
        } catch (final ExecutionException ex) {
            if (ex.getCause() instanceof RangeUnavailableException) {
                throw new RangeUnavailableException(ex.getCause().getMessage(), ex.getCause());
            }
            throw new RangeUnavailableException("SnowKey segment sequence '" + key + "' failed to fetch a range: " + ex.getCause(), ex.getCause());
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new RangeUnavailableException("SnowKey segment sequence '" + key + "': interrupted while waiting for a range from " + allocator.describe(), ex);
        }
    }

    private void failIfStopped() {
        if (brokenReason != null) {
            throw new RangeUnavailableException("SnowKey segment sequence '" + key + "' stopped: " + brokenReason);
        }
        if (closed) {
            throw closedException();
        }
    }

    /**
     * Called after taking keys from the current range, so that every key a closed sequence hands out was taken before
     * it closed. Once closed, even keys left in its range are refused: a later sequence of the same key (its scope
     * joined again) may have issued higher ones meanwhile, and keys of a table issued in this JVM must increase. What
     * is left, and what was just taken, is a gap.
     */
    private void failIfClosed() {
        if (closed) {
            throw closedException();
        }
    }

    private RangeUnavailableException closedException() {
        return new RangeUnavailableException("SnowKey segment sequence '" + key + "' is closed");
    }

    /** Keys this sequence can still issue without the allocator: the rest of the current range and the next one, if fetched. */
    public long remaining() {
        Segment segment = current;
        long result = segment == null ? 0 : segment.remaining();
        CompletableFuture<Segment> fetch;
        synchronized (lock) {
            fetch = pending;
        }
        if (fetch != null && fetch.isDone() && !fetch.isCompletedExceptionally()) {
            result += fetch.join().remaining();
        }
        return result;
    }

    /** Keys handed out so far by this sequence. */
    public long issued() {
        synchronized (lock) {
            Segment segment = current;
            return usedBeforeCurrent + (segment == null ? 0 : segment.used());
        }
    }

    /** What the sequence holds and how its fetches went, for health and metrics. */
    public SegmentStatus status() {
        long step;
        synchronized (lock) {
            step = this.step;
        }
        long remaining = remaining();
        double rate = stats.sampleRate(issued(), clock.nanoTime());
        RuntimeException failure = lastFailure;
        return new SegmentStatus(key, allocator.describe(), step, remaining, rate, rate > 0 ? remaining / rate : Double.POSITIVE_INFINITY,
                stats.rangesFetched(), stats.fetchFailures(), stats.lastFetchNanos(), failure == null ? null : failure.getMessage(), brokenReason);
    }

    /**
     * Stops the sequence: no new range is asked for, and every later caller fails, also while keys are left in the
     * current range (a later sequence of the same key may have issued higher ones already); whatever is never issued is
     * a gap.
     */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
        }
    }
}
