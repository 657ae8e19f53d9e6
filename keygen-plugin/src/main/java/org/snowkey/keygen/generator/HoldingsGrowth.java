package org.snowkey.keygen.generator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.lease.WorkerLease;

/**
 * Grows and shrinks the holdings of one id space with demand (docs/design.md, "Holdings: more worker ids for a hot
 * generator"), on a background thread, never on an id's path.
 *
 * <ul>
 *   <li><b>Grow</b> when calls waited for the clock (the counter had caught up with it: the time cache is spent) in
 *       {@value #HOT_TICKS_TO_GROW} checks in a row ({@value #TICK_MILLIS} ms apart): the holdings double, up to
 *       {@code max-worker-ids-per-instance}, each extra a lease of its own from the scope's pool, acquired here.</li>
 *   <li><b>Never take the last free numbers</b>: a pool keeps a quarter of its numbers free for other instances, and a
 *       pool nearly full stops growing.</li>
 *   <li><b>Shrink</b> after {@value #IDLE_TICKS_TO_SHRINK} checks without such a wait: the holdings halve (the lease's own
 *       stays), each extra given back released with its exact high-water mark.</li>
 *   <li>Extras whose grant was revoked are dropped at every check too (the id space drops them on an id's path as
 *       soon as it meets them).</li>
 * </ul>
 * One JVM-wide daemon thread serves every generator.
 */
final class HoldingsGrowth implements AutoCloseable {

    static final long TICK_MILLIS = 100;

    static final int HOT_TICKS_TO_GROW = 3;

    static final int IDLE_TICKS_TO_SHRINK = 300;

    /** A time cache this small at a check counts as spent. */
    static final long SPENT_CACHE_MILLIS = 2;

    private static final Logger LOG = LoggerFactory.getLogger(HoldingsGrowth.class);

    private static final ScheduledExecutorService SHARED = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "snowkey-holdings");
        thread.setDaemon(true);
        return thread;
    });

    private final IdSpace idSpace;

    private final int maxWorkerIds;

    private final int poolSize;

    private ScheduledFuture<?> schedule;

    private long lastCapWaits;

    private int hotTicks;

    private int idleTicks;

    /** Set when the pool cannot give more (a static worker id) or the generator closed: no more growth. */
    private volatile boolean stopped;

    private boolean warnedFull;

    HoldingsGrowth(final IdSpace idSpace, final int maxWorkerIds, final int poolSize) {
        this.idSpace = idSpace;
        this.maxWorkerIds = maxWorkerIds;
        this.poolSize = poolSize;
    }

    /** The JVM-wide thread that runs every generator's checks, and closes the leases of dropped holdings. */
    static ScheduledExecutorService sharedThread() {
        return SHARED;
    }

    /** Starts the checks on {@code thread}. */
    void start(final ScheduledExecutorService thread) {
        schedule = thread.scheduleWithFixedDelay(this::tickSafely, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void tickSafely() {
        try {
            tick();
        } catch (final RuntimeException ex) {
            LOG.warn("SnowKey could not adjust the worker ids of {}: {}", idSpace, ex.toString());
        }
    }

    /** One check: drop revoked extras, then grow or shrink by demand. */
    synchronized void tick() {
        if (stopped) {
            return;
        }
        idSpace.dropRevokedHoldings();
        long waits = idSpace.capWaits();
        // At its cap: calls waited for the clock since the last check, and the time cache is still spent now. A burst
        // that waited once while the stream is below its cap leaves a cache behind (the counter falls behind the clock).
        boolean hot = waits > lastCapWaits && idSpace.timeCacheMillis() <= SPENT_CACHE_MILLIS;
        lastCapWaits = waits;
        hotTicks = hot ? hotTicks + 1 : 0;
        idleTicks = hot ? 0 : idleTicks + 1;
        int holdings = idSpace.holdingCount();
        if (hotTicks >= HOT_TICKS_TO_GROW && holdings < maxWorkerIds) {
            hotTicks = 0;
            grow(Math.min(holdings, maxWorkerIds - holdings));
        } else if (idleTicks >= IDLE_TICKS_TO_SHRINK && holdings > 1) {
            idleTicks = 0;
            List<WorkerLease> removed = idSpace.removeHoldings(holdings / 2);
            removed.forEach(WorkerLease::close);
            LOG.info("SnowKey gave back {} worker ids of {} after {} s without a wait for the clock; {} left", removed.size(), idSpace,
                    IDLE_TICKS_TO_SHRINK * TICK_MILLIS / 1000, idSpace.holdingCount());
        }
    }

    private void grow(final int wanted) {
        OptionalInt free = idSpace.lease().freeWorkerIds();
        if (free.isEmpty()) {
            stopped = true;
            return;
        }
        int allowed = Math.min(wanted, free.getAsInt() - poolSize / 4);
        if (allowed <= 0) {
            if (!warnedFull) {
                warnedFull = true;
                LOG.warn("SnowKey does not lease more worker ids for {}: {} of {} numbers of the pool are free, and a quarter of the pool stays free for"
                        + " other instances; ids keep flowing at {} worker id(s)' rate", idSpace, free.getAsInt(), poolSize, idSpace.holdingCount());
            }
            return;
        }
        warnedFull = false;
        List<WorkerLease> opened = new ArrayList<>();
        for (int i = 0; i < allowed; i++) {
            Optional<WorkerLease> sibling = idSpace.lease().openSibling();
            if (sibling.isEmpty()) {
                stopped = true;
                break;
            }
            try {
                sibling.get().currentGrant();
                opened.add(sibling.get());
            } catch (final RuntimeException ex) {
                sibling.get().close();
                LOG.warn("SnowKey could not lease another worker id for {}: {}", idSpace, ex.getMessage());
                break;
            }
        }
        if (opened.isEmpty()) {
            return;
        }
        if (!idSpace.addHoldings(opened)) {
            opened.forEach(WorkerLease::close);
            return;
        }
        LOG.info("SnowKey leased {} more worker id(s) for {}: its calls waited for the clock for {} ms; it issues on {} now (at most {}, {})",
                opened.size(), idSpace, HOT_TICKS_TO_GROW * TICK_MILLIS, Arrays.toString(idSpace.workerIds()), maxWorkerIds,
                PropertyNames.MAX_WORKER_IDS_PER_INSTANCE);
    }

    /** Stops the checks; the generator gives its extra holdings back itself ({@link IdSpace#close()}). */
    @Override
    public void close() {
        stopped = true;
        ScheduledFuture<?> current = schedule;
        if (current != null) {
            current.cancel(false);
        }
    }
}
