package org.snowkey.keygen.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.layout.DecodedId;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseUnavailableException;
import org.snowkey.keygen.lease.WorkerLease;
import org.snowkey.keygen.testing.ManualClock;
import org.snowkey.keygen.testing.MemoryLeasePool;

/**
 * Holdings under the failures around them: a check of the holdings that fails half-way (the primary lost and not
 * acquired again, an extra lost between its acquisition and its addition) must not leave an extra lease open that
 * nobody closes any more, also not when the generator closes.
 */
class HoldingsReviewTest {

    private static final long START = 1_800_000_000_000L;

    /** 4 worker-id bits: a pool of 16 numbers. */
    private static final IdLayout SMALL_POOL = IdLayout.of(4, 1, 1_700_000_000_000L);

    private final ManualClock clock = new ManualClock(START).advanceOnPause(true);

    private final MemoryLeasePool pool = new MemoryLeasePool(SMALL_POOL.workerIdCount(), clock);

    private static IdGenerator generator(final WorkerLease lease, final ManualClock clock, final int maxWorkerIds) {
        return new IdGenerator(SMALL_POOL, lease, clock, new ClockRules(10, 0), maxWorkerIds, null);
    }

    /** Runs the stream at its cap for as many checks as growth needs, each check as the background thread runs it. */
    private static void runHot(final IdGenerator generator) {
        for (int tick = 0; tick < HoldingsGrowth.HOT_TICKS_TO_GROW; tick++) {
            for (int i = 0; i < 3; i++) {
                generator.nextIds((int) (generator.layout().sustainedIdsPerMillisecond() * Math.max(1, generator.workerIds().length)));
            }
            tickAsTheBackgroundThread(generator);
        }
    }

    /** One check as the background thread runs it: a failure is logged, and the next check comes. */
    private static void tickAsTheBackgroundThread(final IdGenerator generator) {
        try {
            generator.growth().tick();
        } catch (final RuntimeException ex) {
            // The background thread logs it and goes on.
        }
    }

    @Test
    void anExtraGivenBackWhileThePrimaryCannotBeAcquiredAgainIsStillClosed() {
        MemoryLeasePool.PoolLease primary = pool.open();
        IdGenerator generator = generator(primary, clock, 2);
        runHot(generator);
        assertEquals(2, generator.workerIds().length);
        MemoryLeasePool.PoolLease extra = otherOpenLeases(primary).get(0);
        int extraNumber = extra.grant().workerId();
        // The primary loses its number, and another instance fills the pool: the primary cannot be acquired again.
        primary.lose();
        while (pool.held().size() < SMALL_POOL.workerIdCount()) {
            pool.occupy();
        }
        for (int tick = 0; tick < HoldingsGrowth.IDLE_TICKS_TO_SHRINK; tick++) {
            tickAsTheBackgroundThread(generator);
        }
        generator.close();
        assertTrue(extra.isClosed(), "the extra given back is closed, not left open with its number held");
        assertTrue(pool.reservedUntil(extraNumber).isPresent(), "its number was released with its high-water mark");
    }

    @Test
    void anExtraLostBetweenItsAcquisitionAndItsAdditionLeavesNoOtherExtraOpen() {
        SiblingsFailingOnce primary = new SiblingsFailingOnce(pool.open());
        IdGenerator generator = generator(primary, clock, 4);
        runHot(generator);
        assertEquals(2, generator.workerIds().length);
        // The next sibling's grant is lost right after its acquisition (a pause past its expiry, the pool full meanwhile).
        primary.failNextSibling = true;
        runHot(generator);
        generator.close();
        for (MemoryLeasePool.PoolLease each : pool.opened()) {
            assertTrue(each.isClosed(), "every lease of the generator is closed: " + each.grant());
        }
        assertTrue(pool.held().isEmpty(), "no number held after close: " + pool.held());
    }

    /**
     * Streams issuing on four threads while another adds, gives back and loses holdings and loses the primary: ids stay
     * unique (also across the grants of one number), increasing per stream, and every number's release lies at or
     * above every id issued on it.
     */
    @Test
    void streamsStayUniqueAndIncreasingWhileTheSetChangesUnderThem() throws Exception {
        MemoryLeasePool.PoolLease primary = pool.open();
        IdSpace space = new IdSpace(primary, new IssuePolicy(SMALL_POOL, clock, new ClockRules(10, 5)), Runnable::run);
        int threads = 4;
        List<List<Long>> issued = new ArrayList<>();
        AtomicBoolean done = new AtomicBoolean();
        // The workers keep pace with the changes (at most 30 calls per step ahead), so that every step of the set finds
        // them issuing: free-running, a fast id path finished its calls before the set had changed much.
        AtomicInteger steps = new AtomicInteger();
        List<Thread> workers = new ArrayList<>();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        for (int t = 0; t < threads; t++) {
            List<Long> mine = new ArrayList<>();
            issued.add(mine);
            SequenceStream stream = new SequenceStream("s" + t, space);
            Random random = new Random(t);
            Thread worker = new Thread(() -> {
                int calls = 0;
                try {
                    while (!done.get() && calls++ < 15_000) {
                        while (calls > 30 * (steps.get() + 1) && !done.get()) {
                            Thread.yield();
                        }
                        if (random.nextBoolean()) {
                            mine.add(stream.nextId());
                        } else {
                            IdBatch batch = stream.nextIds(1 + random.nextInt(40));
                            for (int i = 0; i < batch.size(); i++) {
                                mine.add(batch.id(i));
                            }
                        }
                    }
                } catch (final Throwable ex) {
                    failures.add(ex);
                }
            });
            workers.add(worker);
            worker.start();
        }
        Random chaos = new Random(42);
        List<MemoryLeasePool.PoolLease> extras = new ArrayList<>();
        for (int step = 0; step < 500 && failures.isEmpty(); step++) {
            extras.removeIf(each -> each.isClosed() || each.grant().isRevoked());
            int action = chaos.nextInt(20);
            if (action < 6 && extras.size() < 6) {
                MemoryLeasePool.PoolLease extra = pool.open();
                extra.currentGrant();
                if (space.addHoldings(List.of(extra))) {
                    extras.add(extra);
                }
            } else if (action < 8) {
                space.removeHoldings(1).forEach(WorkerLease::close);
            } else if (action < 11 && !extras.isEmpty()) {
                MemoryLeasePool.PoolLease victim = extras.get(chaos.nextInt(extras.size()));
                if (!victim.isClosed() && victim.grant() != null && !victim.grant().isRevoked()) {
                    victim.lose();
                }
                space.dropRevokedHoldings();
            } else if (action == 11) {
                primary.lose();
            } else {
                clock.advance(chaos.nextInt(3));
            }
            steps.incrementAndGet();
            Thread.yield();
        }
        done.set(true);
        for (Thread each : workers) {
            each.join();
        }
        space.close().forEach(WorkerLease::close);
        primary.close();
        extras.forEach(WorkerLease::close);
        assertTrue(failures.isEmpty(), () -> "no stream failed: " + failures.peek());
        Set<Long> all = new HashSet<>();
        Map<Integer, Long> lastTimestamp = new HashMap<>();
        for (List<Long> each : issued) {
            for (int i = 0; i < each.size(); i++) {
                if (i > 0 && each.get(i) <= each.get(i - 1)) {
                    fail("a stream went back: " + SMALL_POOL.decode(each.get(i - 1)) + " then " + SMALL_POOL.decode(each.get(i)));
                }
                if (!all.add(each.get(i))) {
                    fail("issued twice: " + SMALL_POOL.decode(each.get(i)));
                }
                DecodedId decoded = SMALL_POOL.decode(each.get(i));
                lastTimestamp.merge(decoded.workerId(), decoded.timestamp().toEpochMilli(), Math::max);
            }
        }
        Set<String> highs = new HashSet<>();
        for (long each : all) {
            DecodedId decoded = SMALL_POOL.decode(each);
            if (!highs.add(decoded.workerId() + "/" + decoded.timestamp() + "/" + (decoded.sequence() >> 1))) {
                fail("one high counter value twice on a worker id: " + decoded);
            }
        }
        lastTimestamp.forEach((workerId, last) -> assertTrue(pool.reservedUntil(workerId).orElse(Long.MIN_VALUE) >= last,
                () -> "worker id " + workerId + " released at or above its last id"));
        assertTrue(pool.held().isEmpty(), "nothing held: " + pool.held());
        assertTrue(lastTimestamp.size() > 3, "the streams issued on several worker ids: " + lastTimestamp.keySet());
    }

    /**
     * A thread paused inside the counter, after it read the counter's last value and before its compare-and-set, while
     * the set changes twice (an extra added, then given back): it fails on the sealed counter and issues on the one in
     * force, above everything issued meanwhile and never on the holding given back.
     */
    @Test
    @Timeout(60)
    void aThreadPausedInsideTheCounterAcrossTwoSetChangesIssuesOnTheCounterInForce() throws Exception {
        CountDownLatch paused = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        AtomicBoolean gateOpen = new AtomicBoolean(true);
        WallClock gated = new WallClock() {

            @Override
            public long millis() {
                if ("paused".equals(Thread.currentThread().getName()) && gateOpen.compareAndSet(true, false)) {
                    paused.countDown();
                    try {
                        resume.await();
                    } catch (final InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                }
                return clock.millis();
            }

            @Override
            public long preciseMillis() {
                return clock.preciseMillis();
            }

            @Override
            public void parkNanos(final long nanos) {
                clock.parkNanos(nanos);
            }
        };
        MemoryLeasePool.PoolLease primary = pool.open();
        IdSpace space = new IdSpace(primary, new IssuePolicy(SMALL_POOL, gated, new ClockRules(10, 1_000)), Runnable::run);
        SequenceStream stream = new SequenceStream("t", space);
        SequenceStream other = new SequenceStream("other", space);
        long before = stream.nextId();
        CompletableFuture<Long> pausedId = CompletableFuture.supplyAsync(stream::nextId, runnable -> new Thread(runnable, "paused").start());
        assertTrue(paused.await(10, TimeUnit.SECONDS), "the thread paused inside the counter");
        List<Long> meanwhile = new ArrayList<>();
        MemoryLeasePool.PoolLease extra = pool.open();
        int extraNumber = extra.currentGrant().workerId();
        assertTrue(space.addHoldings(List.of(extra)));
        for (int i = 0; i < 6; i++) {
            meanwhile.add(other.nextId());
        }
        space.removeHoldings(1).forEach(WorkerLease::close);
        for (int i = 0; i < 3; i++) {
            meanwhile.add(other.nextId());
        }
        resume.countDown();
        long after = pausedId.get(10, TimeUnit.SECONDS);
        assertTrue(after > before, "the stream goes on increasing");
        for (long each : meanwhile) {
            assertTrue(after > each, () -> "above everything issued meanwhile: " + SMALL_POOL.decode(each) + " then " + SMALL_POOL.decode(after));
        }
        assertNotEquals(extraNumber, SMALL_POOL.decode(after).workerId(), "never on the holding given back");
        long extraLast = meanwhile.stream().map(SMALL_POOL::decode).filter(each -> each.workerId() == extraNumber)
                .mapToLong(each -> each.timestamp().toEpochMilli()).max().orElseThrow();
        assertTrue(pool.reservedUntil(extraNumber).orElseThrow() >= extraLast, "the extra released at or above its last id");
    }

    /**
     * An extra dropped on an id's path is closed on the background thread; a generator closed before that thread got to
     * it (the shutdown hook, a scope closed at once) still closes it, instead of leaving its number held until expiry.
     */
    @Test
    void aDroppedExtraWhoseCloseIsStillQueuedIsClosedWithTheGenerator() {
        QueuedExecutor background = new QueuedExecutor();
        try {
            IdGenerator generator = new IdGenerator(SMALL_POOL, pool.open(), clock, new ClockRules(10, 0), 2, background);
            generator.nextId();
            runHot(generator);
            assertEquals(2, generator.workerIds().length);
            MemoryLeasePool.PoolLease extra = otherOpenLeases(generator.lease()).get(0);
            // Its renewal thread lost the number and acquired another one at once.
            extra.grant().revoke("lost (test)");
            extra.currentGrant();
            generator.nextIds(2);
            assertEquals(1, generator.workerIds().length, "the extra in doubt was dropped");
            assertEquals(1, background.queued.size(), "its close waits for the background thread");
            generator.close();
            assertTrue(extra.isClosed(), "the generator closed the dropped extra");
            assertTrue(pool.held().isEmpty(), "no number held after close: " + pool.held());
        } finally {
            background.shutdownNow();
        }
    }

    /**
     * A long-lived primary grant does not keep the counters of past holdings: a generator whose demand comes and goes
     * grows and shrinks for as long as its lease lasts, and every counter kept would keep its extras' grants too.
     */
    @Test
    void aHoldingGivenBackIsNotKeptByThePrimaryGrant() {
        MemoryLeasePool.PoolLease primary = pool.open();
        IdSpace space = new IdSpace(primary, new IssuePolicy(SMALL_POOL, clock, new ClockRules(10, 0)), Runnable::run);
        SequenceStream stream = new SequenceStream("t", space);
        stream.nextId();
        WeakReference<LeaseGrant> givenBack = growAndShrink(space, stream);
        for (int i = 0; i < 3; i++) {
            stream.nextId();
        }
        for (int attempt = 0; attempt < 20 && givenBack.get() != null; attempt++) {
            System.gc();
        }
        assertNull(givenBack.get(), "the grant of a holding given back is not reachable from the id space any more");
        space.close();
        primary.close();
    }

    /** Adds a holding outside the pool's bookkeeping, issues on it and gives it back; returns its grant, weakly held. */
    private static WeakReference<LeaseGrant> growAndShrink(final IdSpace space, final SequenceStream stream) {
        LeaseGrant grant = new LeaseGrant(15, START, LeaseGrant.UNBOUNDED, "worker id 15 (test)");
        WorkerLease extra = new WorkerLease() {

            @Override
            public LeaseGrant currentGrant() {
                return grant;
            }

            @Override
            public String describe() {
                return "one grant (test)";
            }

            @Override
            public void close() {
                grant.sealForRelease("released (test)");
            }
        };
        assertTrue(space.addHoldings(List.of(extra)));
        for (int i = 0; i < 4; i++) {
            stream.nextId();
        }
        space.removeHoldings(1).forEach(WorkerLease::close);
        return new WeakReference<>(grant);
    }

    private List<MemoryLeasePool.PoolLease> otherOpenLeases(final WorkerLease primary) {
        List<MemoryLeasePool.PoolLease> others = new ArrayList<>();
        for (MemoryLeasePool.PoolLease each : pool.opened()) {
            if (each != primary && !each.isClosed()) {
                others.add(each);
            }
        }
        return others;
    }

    /** A background thread that never gets to run: its tasks stay queued, and the checks are run by hand. */
    private static final class QueuedExecutor extends ScheduledThreadPoolExecutor {

        private final List<Runnable> queued = new ArrayList<>();

        QueuedExecutor() {
            super(1);
        }

        @Override
        public void execute(final Runnable command) {
            queued.add(command);
        }

        @Override
        public ScheduledFuture<?> scheduleWithFixedDelay(final Runnable command, final long initialDelay, final long delay, final TimeUnit unit) {
            return super.schedule(() -> { }, 1, TimeUnit.DAYS);
        }
    }

    /** A pool lease whose next sibling, once asked to, fails on its second read of the grant: lost and not acquired again. */
    private static final class SiblingsFailingOnce implements WorkerLease {

        private final MemoryLeasePool.PoolLease delegate;

        private boolean failNextSibling;

        SiblingsFailingOnce(final MemoryLeasePool.PoolLease delegate) {
            this.delegate = delegate;
        }

        @Override
        public LeaseGrant currentGrant() {
            return delegate.currentGrant();
        }

        @Override
        public String describe() {
            return delegate.describe();
        }

        @Override
        public boolean opensSiblings() {
            return true;
        }

        @Override
        public Optional<WorkerLease> openSibling() {
            MemoryLeasePool.PoolLease sibling = (MemoryLeasePool.PoolLease) delegate.openSibling().orElseThrow();
            if (!failNextSibling) {
                return Optional.of(sibling);
            }
            failNextSibling = false;
            return Optional.of(new FailingOnSecondRead(sibling));
        }

        @Override
        public OptionalInt freeWorkerIds() {
            return delegate.freeWorkerIds();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }

    /** A sibling whose grant is lost after the first read, and whose pool has no number left for it. */
    private static final class FailingOnSecondRead implements WorkerLease {

        private final MemoryLeasePool.PoolLease delegate;

        private int reads;

        FailingOnSecondRead(final MemoryLeasePool.PoolLease delegate) {
            this.delegate = delegate;
        }

        @Override
        public LeaseGrant currentGrant() {
            if (++reads == 1) {
                return delegate.currentGrant();
            }
            throw new LeaseUnavailableException("lost during a pause, and the pool is full (test)");
        }

        @Override
        public String describe() {
            return delegate.describe();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}
