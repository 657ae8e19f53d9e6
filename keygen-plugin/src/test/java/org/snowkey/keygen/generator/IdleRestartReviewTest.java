package org.snowkey.keygen.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.snowkey.keygen.generator.RunFixtures.CAP;
import static org.snowkey.keygen.generator.RunFixtures.LAYOUT;
import static org.snowkey.keygen.generator.RunFixtures.T;
import static org.snowkey.keygen.generator.RunFixtures.assertReleasedAtItsLastId;
import static org.snowkey.keygen.generator.RunFixtures.leaseOnWorkerId1;
import static org.snowkey.keygen.generator.RunFixtures.wallClockOf;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseUnavailableException;
import org.snowkey.keygen.lease.WorkerLease;
import org.snowkey.keygen.testing.ManualClock;
import org.snowkey.keygen.testing.MemoryLeasePool;

/**
 * Review of commit d934204: a counter idle past the time cache's cap is replaced by one starting at the first value of
 * the millisecond jumped to ({@code IdSpace.restartAfterIdle}), the cap condition is {@code last + 1 < counterAt(floor)},
 * a batch resets the run hints, and a run is checked against the clock by its millisecond. Layout: 8 values per
 * millisecond and worker id (W = 18, L = 1), as in RunReviewTest.
 */
class IdleRestartReviewTest {

    // --- a restart that does not move: the call spins (livelock) -----------------------------------------------------------

    /**
     * Failed on d934204 (livelock). The time cache is off (cap 0, allowed: "0 turns the cache off"). One id at T, then 100
     * ms idle, then a batch of 8 (one millisecond of values). The cap branch computes a jump that, shortened so the batch
     * does not end ahead of the clock, starts the next counter at {@code now - 1}, which still lies behind the cap's floor
     * ({@code now}); on the restarted counter the same branch computes a jump of exactly one millisecond from the value
     * before its first millisecond, i.e. a restart at the millisecond it already starts in: sealed and started again in
     * place, RETRY, again, for as long as the clock stands; when it ticks, the restart moves to the new {@code now - 1}
     * and spins again. The batch never returns. (The old jump moved the same counter by a whole millisecond, which was
     * progress; a restart "one millisecond later than the value before the first" is none.) The clock here moves 1 ms
     * every 100 reads, like a real clock under a spinning thread, and gives up after 100,000 reads (1,000 ms).
     */
    @Test
    @Timeout(30)
    void aBatchOfOneMillisecondAfterIdleWithTheCacheOffIsIssued() {
        ManualClock manual = new ManualClock(T).advanceOnPause(true);
        TickingClock clock = new TickingClock(manual, 100, 100_000);
        IdGenerator generator = new IdGenerator(LAYOUT, leaseOnWorkerId1(), clock, new ClockRules(CAP, 0));
        SequenceStream stream = generator.stream("t");
        long first = stream.nextId();
        manual.advance(100);
        clock.arm();
        IdBatch batch = stream.nextIds(8);
        clock.disarm();
        assertTrue(batch.id(0) > first);
        assertTrue(wallClockOf(batch.id(7)) <= manual.millis(), "not ahead of the clock");
    }

    /**
     * Failed on d934204 (livelock), the same story with a cache: cap 1,000 ms, 5,000 ms idle, a batch of 12,000 values
     * (1,500 ms of them, more than the cache holds). The first restart starts at {@code now - 1500} (the batch then ends at
     * the clock), behind the floor {@code now - 1000}; the next computes a jump of one millisecond shortened by the batch
     * and restarts in place, forever.
     */
    @Test
    @Timeout(30)
    void aBatchLargerThanTheTimeCacheAfterIdleIsIssued() {
        ManualClock manual = new ManualClock(T).advanceOnPause(true);
        TickingClock clock = new TickingClock(manual, 100, 100_000);
        IdGenerator generator = new IdGenerator(LAYOUT, leaseOnWorkerId1(), clock, new ClockRules(CAP, CAP));
        SequenceStream stream = generator.stream("t");
        long first = stream.nextId();
        manual.advance(5 * CAP);
        clock.arm();
        IdBatch batch = stream.nextIds(12_000);
        clock.disarm();
        assertTrue(batch.id(0) > first);
        assertTrue(wallClockOf(batch.id(batch.size() - 1)) <= manual.millis(), "not ahead of the clock");
    }

    /**
     * Failed on d934204 (a spin until the clock ticks). Cache off (cap 0); the counter's last id is the last value of its
     * millisecond (8 ids in ms T), then 100 ms idle and one id. The first restart starts at {@code now - 1} (a single id
     * one past the millisecond's end would be ahead otherwise), behind the floor; the restarted counter restarts in place
     * until the clock moves. A real clock moves within a millisecond, so this one ends, but only after a busy loop of
     * counter replacements (each a seal, a settle and an attach per holding under the lock). The clock here never moves
     * by itself, so the call gives up after 10,000 reads instead; an id needs a handful.
     */
    @Test
    @Timeout(30)
    void aSingleIdAfterIdleWithTheCacheOffDoesNotSpin() {
        ManualClock manual = new ManualClock(T).advanceOnPause(true);
        TickingClock clock = new TickingClock(manual, Long.MAX_VALUE, 10_000);
        IdGenerator generator = new IdGenerator(LAYOUT, leaseOnWorkerId1(), clock, new ClockRules(CAP, 0));
        SequenceStream stream = generator.stream("t");
        long last = Long.MIN_VALUE;
        for (int i = 0; i < 8; i++) {
            last = stream.nextId();
        }
        assertEquals(T, wallClockOf(last), "8 ids fill millisecond T");
        manual.advance(100);
        clock.arm();
        long id = stream.nextId();
        clock.disarm();
        assertTrue(id > last);
        assertEquals(manual.millis(), wallClockOf(id), "with the cache off, the id carries the clock's millisecond");
    }

    // --- restarts and the clock --------------------------------------------------------------------------------------------

    /**
     * Idle past the cap, then the clock steps back (beyond the tolerance for the restarted counter: the call fails), then
     * jumps far forward again (a second restart). Ids stay increasing and never older than the cap, and never ahead of the
     * clock; no restart starts before the previous counter's last millisecond.
     */
    @Test
    @Timeout(30)
    void restartsAcrossAClockThatStepsBackAndJumpsForwardKeepIdsIncreasingAndInsideTheCache() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        IdGenerator generator = new IdGenerator(LAYOUT, leaseOnWorkerId1(), clock, new ClockRules(10, CAP));
        SequenceStream stream = generator.stream("t");
        List<Long> ids = new ArrayList<>();
        ids.add(stream.nextId());
        clock.advance(5 * CAP);
        ids.add(stream.nextId());
        assertEquals(clock.millis() - CAP, wallClockOf(ids.get(1)), "restarted at the cap's floor");
        clock.set(T + 2 * CAP);
        assertThrows(IdUnavailableException.class, stream::nextId, "the restarted counter lies ahead of a clock moved back 2,000 ms");
        clock.set(T + 20 * CAP);
        for (int i = 0; i < 30; i++) {
            ids.add(stream.nextId());
        }
        IdBatch batch = stream.nextIds(50);
        for (int i = 0; i < batch.size(); i++) {
            ids.add(batch.id(i));
        }
        for (int i = 1; i < ids.size(); i++) {
            assertTrue(ids.get(i) > ids.get(i - 1), "increasing at " + i);
        }
        for (long each : ids.subList(2, ids.size())) {
            assertTrue(wallClockOf(each) >= clock.millis() - CAP && wallClockOf(each) <= clock.millis(), "inside the cache: " + LAYOUT.decode(each));
        }
    }

    /** A counter that never issued (just started by an added holding) idles past the cap: the next id is inside the cache. */
    @Test
    @Timeout(30)
    void aCounterThatNeverIssuedRestartsInsideTheCache() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        MemoryLeasePool pool = new MemoryLeasePool(4, clock);
        MemoryLeasePool.PoolLease lease = pool.open();
        IdGenerator generator = GeneratorTestAccess.withManualHoldings(LAYOUT, lease, clock, new ClockRules(CAP, CAP), 2);
        SequenceStream stream = generator.stream("t");
        long first = stream.nextId();
        clock.advance(1);
        int extra = GeneratorTestAccess.addHolding(generator).orElseThrow().currentGrant().workerId();
        clock.advance(3 * CAP);
        long id = stream.nextId();
        assertTrue(id > first);
        assertEquals(clock.millis() - CAP, wallClockOf(id));
        assertTrue(GeneratorTestAccess.removeHolding(generator));
        assertTrue(pool.reservedUntil(extra).orElse(Long.MIN_VALUE) < wallClockOf(id) || pool.reservedUntil(extra).isEmpty(),
                "the extra issued nothing: its mark is not the restarted counter's millisecond, " + pool.reservedUntil(extra));
    }

    // --- high-water marks after a restart -------------------------------------------------------------------------------

    /**
     * Three holdings; values 0..2 of ms T + 1 issued (one per holding); idle twice the cap; one id (the restart, rank 0 in
     * the new millisecond). Both extras given back and the primary closed: each writes the millisecond of its own last id.
     */
    @Test
    @Timeout(30)
    void everyHoldingReleasedRightAfterARestartWritesItsOwnLastMillisecond() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        MemoryLeasePool pool = new MemoryLeasePool(4, clock);
        MemoryLeasePool.PoolLease lease = pool.open();
        IdGenerator generator = GeneratorTestAccess.withManualHoldings(LAYOUT, lease, clock, new ClockRules(CAP, CAP), 3);
        SequenceStream stream = generator.stream("t");
        stream.nextId();
        clock.advance(1);
        int middle = GeneratorTestAccess.addHolding(generator).orElseThrow().currentGrant().workerId();
        int newest = GeneratorTestAccess.addHolding(generator).orElseThrow().currentGrant().workerId();
        clock.advance(100);
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(stream.nextId());
        }
        clock.advance(2 * CAP);
        ids.add(stream.nextId());
        assertTrue(GeneratorTestAccess.removeHolding(generator));
        assertReleasedAtItsLastId(pool, newest, ids);
        assertTrue(GeneratorTestAccess.removeHolding(generator));
        assertReleasedAtItsLastId(pool, middle, ids);
        lease.close();
        assertReleasedAtItsLastId(pool, lease.grant().workerId(), ids);
    }

    // --- the lease after RETRY -----------------------------------------------------------------------------------------------

    /**
     * The restart returns RETRY and the caller asks the lease (moveToCurrentGrant), which throws: the call fails, nothing
     * loops. Once the lease answers again, ids continue above the last one and inside the cache.
     */
    @Test
    @Timeout(30)
    void aLeaseThatThrowsAfterTheRestartFailsTheCallAndIdsContinueAfterward() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        FlakyLease lease = new FlakyLease(leaseOnWorkerId1());
        IdGenerator generator = new IdGenerator(LAYOUT, lease, clock, new ClockRules(CAP, CAP));
        SequenceStream stream = generator.stream("t");
        long first = stream.nextId();
        clock.advance(3 * CAP);
        lease.failing.set(true);
        try {
            long id = stream.nextId();
            // The restart's counter may be taken without asking the lease; then it must be valid.
            assertTrue(id > first && wallClockOf(id) >= clock.millis() - CAP);
        } catch (final LeaseUnavailableException expected) {
            // Asked after RETRY.
        }
        lease.failing.set(false);
        long next = stream.nextId();
        assertTrue(next > first);
        assertTrue(wallClockOf(next) >= clock.millis() - CAP && wallClockOf(next) <= clock.millis());
    }

    // --- extreme layouts ---------------------------------------------------------------------------------------------------

    /** W = 1, L = 0, both numbers held, the largest cap: the cap branch's arithmetic wraps; ids keep coming, increasing. */
    @Test
    @Timeout(30)
    void theLargestCapOnTheSmallestLayoutIssuesIncreasingIds() {
        long epoch = 1_700_000_000_000L;
        IdLayout layout = IdLayout.of(1, 0, epoch);
        ManualClock clock = new ManualClock(epoch + 1_000_000).advanceOnPause(true);
        MemoryLeasePool pool = new MemoryLeasePool(layout.workerIdCount(), clock);
        IdGenerator generator = GeneratorTestAccess.withManualHoldings(layout, pool.open(), clock, new ClockRules(10, IdLayout.MAX_TIMESTAMP), 2);
        SequenceStream stream = generator.stream("t");
        long last = stream.nextId();
        assertTrue(GeneratorTestAccess.addHolding(generator).isPresent());
        for (int round = 0; round < 5; round++) {
            clock.advance(1_000_000);
            for (int i = 0; i < 20; i++) {
                long id = stream.nextId();
                assertTrue(id > last, "increasing");
                last = id;
            }
            IdBatch batch = stream.nextIds(100);
            assertTrue(batch.id(0) > last);
            last = batch.id(99);
        }
    }

    /** W = 1, L = 0, two holdings, a cap of 5 ms: restarts on every idle, marks exact, ids increasing. */
    @Test
    @Timeout(30)
    void aSmallCapOnTheSmallestLayoutWithTwoHoldingsRestartsCleanly() {
        long epoch = 1_700_000_000_000L;
        IdLayout layout = IdLayout.of(1, 0, epoch);
        ManualClock clock = new ManualClock(epoch + 1_000_000).advanceOnPause(true);
        MemoryLeasePool pool = new MemoryLeasePool(layout.workerIdCount(), clock);
        IdGenerator generator = GeneratorTestAccess.withManualHoldings(layout, pool.open(), clock, new ClockRules(10, 5), 2);
        SequenceStream stream = generator.stream("t");
        long last = stream.nextId();
        for (int round = 0; round < 5; round++) {
            clock.advance(100);
            int extra = GeneratorTestAccess.addHolding(generator).orElseThrow().currentGrant().workerId();
            clock.advance(100);
            long lastOfExtra = Long.MIN_VALUE;
            for (int i = 0; i < 10; i++) {
                long id = stream.nextId();
                assertTrue(id > last, "increasing");
                assertTrue(layout.decode(id).timestamp().toEpochMilli() >= clock.millis() - 5);
                if (layout.decode(id).workerId() == extra) {
                    lastOfExtra = layout.decode(id).timestamp().toEpochMilli();
                }
                last = id;
            }
            assertTrue(GeneratorTestAccess.removeHolding(generator));
            assertEquals(lastOfExtra, (long) pool.reservedUntil(extra).orElseThrow());
        }
    }

    // --- item 3: the run's clock check equals the old bounds ----------------------------------------------------------------

    /**
     * A run held in millisecond m: at the clock m + cap its next value is still issued (old bounds: value >= nowCounter -
     * span); at m + cap + 1 it is not; at m - 1 (clock moved back) it is not.
     */
    @Test
    @Timeout(30)
    void aRunIsIssuedExactlyUpToTheCapAndNotAheadOfTheClock() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        IdGenerator generator = new IdGenerator(LAYOUT, leaseOnWorkerId1(), clock, new ClockRules(CAP, CAP));
        SequenceStream stream = generator.stream("t");
        stream.nextId();
        clock.advance(100);
        long m = runningMillisecond(generator, stream);
        long[] run = RunReviewTest.liveRunOfCallingThread(generator);
        clock.set(m + CAP);
        long atCap = stream.nextId();
        assertEquals(m, wallClockOf(atCap));
        long[] after = RunReviewTest.liveRunOfCallingThread(generator);
        assertTrue(after != null && after[0] == run[0] + 1 && after[1] == run[1], "the run's next value issued at the cap's edge");
        clock.set(m + CAP + 1);
        long pastCap = stream.nextId();
        assertTrue(wallClockOf(pastCap) >= clock.millis() - CAP, "past the cap: not from the run");
    }

    @Test
    @Timeout(30)
    void aRunIsNotIssuedOneMillisecondAheadOfAClockThatMovedBack() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        IdGenerator generator = new IdGenerator(LAYOUT, leaseOnWorkerId1(), clock, new ClockRules(CAP, CAP));
        SequenceStream stream = generator.stream("t");
        stream.nextId();
        clock.advance(100);
        long m = runningMillisecond(generator, stream);
        clock.set(m - 1);
        long id = stream.nextId();
        assertTrue(wallClockOf(id) <= clock.millis(), "not ahead of the clock: " + LAYOUT.decode(id) + ", clock " + clock.millis());
    }

    /** Single ids until a run is held with at least two values left; returns its millisecond. */
    private static long runningMillisecond(final IdGenerator generator, final SequenceStream stream) {
        for (int i = 0; i < 20; i++) {
            long id = stream.nextId();
            long[] run = RunReviewTest.liveRunOfCallingThread(generator);
            if (run != null && run[1] - run[0] >= 1) {
                return wallClockOf(id);
            }
        }
        fail("no run formed");
        return 0;
    }

    // --- item 2: a batch resets the run hints ---------------------------------------------------------------------------

    /** After its batch, the thread's next single id takes no run (its run starts again at one). */
    @Test
    @Timeout(30)
    void aSingleIdRightAfterTheOwnersBatchReservesNoRun() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        IdGenerator generator = new IdGenerator(LAYOUT, leaseOnWorkerId1(), clock, new ClockRules(CAP, CAP));
        SequenceStream stream = generator.stream("t");
        stream.nextId();
        clock.advance(100);
        runningMillisecond(generator, stream);
        stream.nextIds(2);
        stream.nextId();
        assertEquals(null, RunReviewTest.liveRunOfCallingThread(generator), "no run reserved by the first single id after a batch");
    }

    /**
     * A caller found the counter idle past the cap and waits for the id space's lock in restartAfterIdle (the test holds
     * it); meanwhile an extra holding is given back, which starts the next counter at the clock. The caller must move to
     * that counter, not replace it again. Another thread issues on the give-back's counter first, so a second replacement
     * (the {@code grantCounter == idle} check removed: the idle counter is sealed by then, so isSealed alone also skips it)
     * would seal that counter and start one a millisecond later, and the caller would wait for the clock.
     */
    @Test
    @Timeout(30)
    void aRestartQueuedBehindAGiveBackMovesToTheCounterTheGiveBackStarted() throws Exception {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        MemoryLeasePool pool = new MemoryLeasePool(4, clock);
        MemoryLeasePool.PoolLease lease = pool.open();
        IdGenerator generator = GeneratorTestAccess.withManualHoldings(LAYOUT, lease, clock, new ClockRules(CAP, CAP), 2);
        SequenceStream stream = generator.stream("t");
        long first = stream.nextId();
        clock.advance(1);
        GeneratorTestAccess.addHolding(generator).orElseThrow();
        stream.nextId();
        clock.advance(3 * CAP);
        IdSpace idSpace = generator.idSpace();
        java.util.concurrent.ExecutorService caller = java.util.concurrent.Executors.newSingleThreadExecutor(r -> new Thread(r, "caller"));
        try {
            java.util.concurrent.Future<Long> id;
            long removedAt;
            Thread callerThread;
            synchronized (idSpace) {
                id = caller.submit(stream::nextId);
                callerThread = waitForBlocked(caller);
                assertTrue(java.util.Arrays.stream(callerThread.getStackTrace()).anyMatch(f -> f.getMethodName().equals("restartAfterIdle")),
                        "the caller waits in restartAfterIdle");
                GeneratorTestAccess.removeHolding(generator);
                removedAt = clock.millis();
                // Another thread issues on the new counter meanwhile (the id path takes no lock).
                java.util.concurrent.ExecutorService other = java.util.concurrent.Executors.newSingleThreadExecutor();
                try {
                    long fromOther = other.submit(stream::nextId).get(20, TimeUnit.SECONDS);
                    assertEquals(removedAt, wallClockOf(fromOther));
                } finally {
                    other.shutdownNow();
                }
            }
            long issued = id.get(20, TimeUnit.SECONDS);
            assertTrue(issued > first);
            assertEquals(removedAt, wallClockOf(issued), "the caller issued on the counter the give-back started, at the clock: " + LAYOUT.decode(issued));
        } finally {
            caller.shutdownNow();
        }
    }

    private static Thread waitForBlocked(final java.util.concurrent.ExecutorService executor) throws Exception {
        for (int i = 0; i < 2_000; i++) {
            for (Thread each : Thread.getAllStackTraces().keySet()) {
                if (each.getName().equals("caller") && each.getState() == Thread.State.BLOCKED) {
                    return each;
                }
            }
            Thread.sleep(5);
        }
        fail("the caller never blocked on the id space's lock");
        return null;
    }

    // --- races -----------------------------------------------------------------------------------------------------------

    /**
     * Three threads take single ids and batches while a fourth moves the clock past the cap again and again, adds and
     * gives back holdings. No id twice, each thread's ids increasing, every id inside the cache when taken (up to the
     * clock's moves), and each mark written by a give-back at or above every id issued on that worker id before it.
     */
    @Test
    @Timeout(60)
    void restartsRacingIdsBatchesAndChangesOfHoldings() throws Exception {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        MemoryLeasePool pool = new MemoryLeasePool(6, clock);
        MemoryLeasePool.PoolLease lease = pool.open();
        IdGenerator generator = GeneratorTestAccess.withManualHoldings(LAYOUT, lease, clock, new ClockRules(CAP, 50), 4);
        SequenceStream stream = generator.stream("t");
        stream.nextId();
        ConcurrentLinkedQueue<Long> all = new ConcurrentLinkedQueue<>();
        ConcurrentHashMap<Integer, AtomicLong> lastByWorker = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(3);
        for (int t = 0; t < 3; t++) {
            final int index = t;
            Thread thread = new Thread(() -> {
                long last = Long.MIN_VALUE;
                try {
                    for (int i = 0; i < 3_000 && !stop.get(); i++) {
                        if (i % 7 == index) {
                            IdBatch batch = stream.nextIds(3);
                            for (int j = 0; j < 3; j++) {
                                long id = batch.id(j);
                                assertTrue(id > last, "increasing on a thread");
                                last = id;
                                record(all, lastByWorker, id);
                            }
                        } else {
                            long id = stream.nextId();
                            assertTrue(id > last, "increasing on a thread");
                            last = id;
                            record(all, lastByWorker, id);
                        }
                    }
                } catch (final Throwable ex) {
                    failures.add(ex);
                } finally {
                    done.countDown();
                }
            }, "caller-" + t);
            threads.add(thread);
            thread.start();
        }
        int changes = 0;
        while (!done.await(0, TimeUnit.MILLISECONDS) && changes < 400) {
            changes++;
            if (changes % 3 == 0) {
                clock.advance(200);
            } else {
                clock.advance(1);
            }
            if (changes % 5 == 0) {
                GeneratorTestAccess.addHolding(generator);
            } else if (changes % 5 == 3) {
                List<WorkerLease> removed = generator.idSpace().removeHoldings(1);
                for (WorkerLease each : removed) {
                    int workerId = each.currentGrant().workerId();
                    each.close();
                    AtomicLong lastIssued = lastByWorker.get(workerId);
                    long mark = pool.reservedUntil(workerId).orElse(Long.MIN_VALUE);
                    if (lastIssued != null) {
                        assertTrue(mark >= lastIssued.get(), "worker id " + workerId + " released at " + mark + " below an id issued at " + lastIssued.get());
                    }
                }
            }
            Thread.yield();
        }
        stop.set(true);
        for (Thread each : threads) {
            each.join(20_000);
        }
        if (!failures.isEmpty()) {
            throw new AssertionError(failures.get(0));
        }
        List<Long> ids = new ArrayList<>(all);
        assertEquals(ids.size(), new HashSet<>(ids).size(), "no id twice");
    }

    private static void record(final ConcurrentLinkedQueue<Long> all, final ConcurrentHashMap<Integer, AtomicLong> lastByWorker, final long id) {
        all.add(id);
        lastByWorker.computeIfAbsent(LAYOUT.decode(id).workerId(), k -> new AtomicLong(Long.MIN_VALUE)).accumulateAndGet(wallClockOf(id), Math::max);
    }

    // --- helpers ---------------------------------------------------------------------------------------------------------

    /**
     * A clock that, once armed, moves 1 ms every {@code readsPerMillisecond} reads (a real clock under a spinning thread)
     * and fails the call after {@code budget} reads: no call needs that many.
     */
    private static final class TickingClock implements WallClock {

        private final ManualClock manual;

        private final long readsPerMillisecond;

        private final long budget;

        private final AtomicLong reads = new AtomicLong();

        private volatile boolean armed;

        TickingClock(final ManualClock manual, final long readsPerMillisecond, final long budget) {
            this.manual = manual;
            this.readsPerMillisecond = readsPerMillisecond;
            this.budget = budget;
        }

        void arm() {
            reads.set(0);
            armed = true;
        }

        void disarm() {
            armed = false;
        }

        private void count() {
            if (!armed) {
                return;
            }
            long n = reads.incrementAndGet();
            if (n > budget) {
                armed = false;
                throw new AssertionError("the call read the clock " + budget + " times without returning (a livelock); clock at " + manual.millis());
            }
            if (n % readsPerMillisecond == 0) {
                manual.advance(1);
            }
        }

        @Override
        public long millis() {
            count();
            return manual.millis();
        }

        @Override
        public long preciseMillis() {
            count();
            return manual.preciseMillis();
        }

        @Override
        public void parkNanos(final long nanos) {
            manual.parkNanos(nanos);
        }
    }

    /** A lease whose currentGrant() throws while {@link #failing} is set. */
    private static final class FlakyLease implements WorkerLease {

        private final WorkerLease inner;

        final AtomicBoolean failing = new AtomicBoolean();

        FlakyLease(final WorkerLease inner) {
            this.inner = inner;
        }

        @Override
        public LeaseGrant currentGrant() {
            if (failing.get()) {
                throw new LeaseUnavailableException("flaky test lease");
            }
            return inner.currentGrant();
        }

        @Override
        public String describe() {
            return "flaky " + inner.describe();
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
