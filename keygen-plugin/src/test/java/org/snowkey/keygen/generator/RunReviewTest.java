package org.snowkey.keygen.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.snowkey.keygen.generator.RunFixtures.CAP;
import static org.snowkey.keygen.generator.RunFixtures.LAYOUT;
import static org.snowkey.keygen.generator.RunFixtures.T;
import static org.snowkey.keygen.generator.RunFixtures.assertReleasedAtItsLastId;
import static org.snowkey.keygen.generator.RunFixtures.leaseOnWorkerId1;
import static org.snowkey.keygen.generator.RunFixtures.wallClockOf;
import static org.snowkey.keygen.generator.RunFixtures.field;
import static org.snowkey.keygen.generator.RunFixtures.on;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.testing.ManualClock;
import org.snowkey.keygen.testing.MemoryLeasePool;
import org.snowkey.keygen.testing.SwitchableLease;

/**
 * Review of commit eb18992: a thread that keeps asking for single ids reserves a run of counter values in one
 * compare-and-set and takes them one by one ({@code IdSpace.GrantCounter.takeFromRun}) while the counter still stands at
 * the run's end. The layout has 8 ids per millisecond and worker id (W = 18, L = 1), so runs form; every scenario that
 * needs a run checks that one is held (by reflection on the counter) before the step it is about, so that none of these
 * tests passes merely because no run formed.
 */
class RunReviewTest {

    private final RunFixtures.Threads threads = new RunFixtures.Threads();

    @AfterEach
    void stopThreads() {
        threads.stopAll();
    }

    /**
     * The run the calling thread holds on the generator's counter in force and may still take a value from: {next, end},
     * or null. Reads private state: the scenarios below are only meaningful with a run held.
     */
    static long[] liveRunOfCallingThread(final IdGenerator generator) {
        try {
            Object counter = field(IdSpace.class, "grantCounter").get(generator.idSpace());
            if (counter == null) {
                return null;
            }
            Object run = field(counter.getClass(), "run").get(counter);
            if (run == null) {
                return null;
            }
            Thread owner = (Thread) field(run.getClass(), "owner").get(run);
            long next = field(run.getClass(), "next").getLong(run);
            long end = field(run.getClass(), "end").getLong(run);
            long value = field(counter.getClass(), "counter").getLong(counter);
            return owner == Thread.currentThread() && next <= end && value == end ? new long[] {next, end} : null;
        } catch (final ReflectiveOperationException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** Single ids of the calling thread on {@code stream} until it holds a run (at most 10 calls). */
    private static List<Long> untilARunIsHeld(final IdGenerator generator, final SequenceStream stream) {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ids.add(stream.nextId());
            if (liveRunOfCallingThread(generator) != null) {
                return ids;
            }
        }
        fail("no run formed after 10 single ids: " + ids);
        return ids;
    }

    /** A generator on worker id 1 whose counter lags the clock by 100 ms (a time cache): runs form. */
    private static IdGenerator generatorWithACache(final ManualClock clock, final SwitchableLease lease) {
        IdGenerator generator = new IdGenerator(LAYOUT, lease, clock, new ClockRules(CAP, CAP));
        generator.nextId();
        clock.advance(100);
        return generator;
    }

    // --- guard (a): the counter still at the run's end -------------------------------------------------------------------

    @Test
    @Timeout(30)
    void anIdOfAnotherThreadEndsTheRunOfTheFirst() throws Exception {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        IdGenerator generator = generatorWithACache(clock, leaseOnWorkerId1());
        SequenceStream stream = generator.stream("t");
        ExecutorService owner = threads.named("owner");
        ExecutorService other = threads.named("other");
        on(owner, () -> untilARunIsHeld(generator, stream));
        long fromOther = on(other, stream::nextId);
        long fromOwner = on(owner, stream::nextId);
        assertTrue(fromOwner > fromOther, "the owner's next id, strictly after the other thread's, is above it: " + fromOther + " then " + fromOwner);
    }

    @Test
    @Timeout(30)
    void aBatchOfTheOwnerEndsItsRun() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        IdGenerator generator = generatorWithACache(clock, leaseOnWorkerId1());
        SequenceStream stream = generator.stream("t");
        untilARunIsHeld(generator, stream);
        IdBatch batch = stream.nextIds(3);
        long single = stream.nextId();
        assertTrue(single > batch.id(batch.size() - 1), "a single id after the owner's batch is above it: " + batch.id(2) + " then " + single);
    }

    @Test
    @Timeout(30)
    void theOwnerOfARunGetsNoIdAfterTheLeaseIsReleased() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        SwitchableLease lease = leaseOnWorkerId1();
        IdGenerator generator = generatorWithACache(clock, lease);
        SequenceStream stream = generator.stream("t");
        untilARunIsHeld(generator, stream);
        lease.close();
        long id;
        try {
            id = stream.nextId();
        } catch (final RuntimeException expected) {
            return;
        }
        fail("an id from the run of a released lease's counter: " + LAYOUT.decode(id));
    }

    @Test
    @Timeout(30)
    void theOwnerOfARunIssuesOnTheNextGrantAfterARevocation() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        LeaseGrant first = new LeaseGrant(1, T, LeaseGrant.UNBOUNDED, "worker id 1");
        SwitchableLease lease = new SwitchableLease(first);
        IdGenerator generator = generatorWithACache(clock, lease);
        SequenceStream stream = generator.stream("t");
        List<Long> before = untilARunIsHeld(generator, stream);
        first.revoke("lost in a test");
        lease.replace(new LeaseGrant(2, clock.millis(), LeaseGrant.UNBOUNDED, "worker id 2"));
        long after = stream.nextId();
        assertEquals(2, LAYOUT.decode(after).workerId(), "nothing more from the run on the revoked grant: " + LAYOUT.decode(after));
        assertTrue(after > before.get(before.size() - 1));
    }

    /**
     * The owner stops inside takeFromRun after it read its run's next value and before its read of the counter (parked
     * in its clock read); meanwhile the lease is released, its number acquired again by another instance, which issues
     * on it. Resumed, the owner must not issue: the counter it reads is sealed.
     */
    @Test
    @Timeout(30)
    void theOwnerStoppedInsideTakeFromRunAcrossAReleaseAndReacquisitionGetsNoId() throws Exception {
        ManualClock manual = new ManualClock(T).advanceOnPause(true);
        GatedClock clock = new GatedClock(manual, "owner");
        MemoryLeasePool pool = new MemoryLeasePool(4, manual);
        MemoryLeasePool.PoolLease lease = pool.open();
        IdGenerator generator = new IdGenerator(LAYOUT, lease, clock, new ClockRules(CAP, CAP));
        SequenceStream stream = generator.stream("t");
        ExecutorService owner = threads.named("owner");
        List<Long> all = new ArrayList<>(on(owner, () -> {
            List<Long> ids = new ArrayList<>(List.of(stream.nextId()));
            manual.advance(100);
            ids.addAll(untilARunIsHeld(generator, stream));
            return ids;
        }));
        int number = lease.grant().workerId();
        clock.arm();
        Future<Long> paused = future(owner, stream::nextId);
        assertTrue(clock.paused.await(10, TimeUnit.SECONDS), "the owner stopped inside takeFromRun");
        lease.close();
        MemoryLeasePool.PoolLease successor = pool.open();
        assertEquals(number, successor.currentGrant().workerId(), "the number is acquired again");
        IdGenerator other = new IdGenerator(LAYOUT, successor, manual, new ClockRules(CAP, CAP));
        for (int i = 0; i < 5; i++) {
            all.add(other.nextId());
        }
        clock.resume.countDown();
        try {
            long id = paused.get();
            all.add(id);
            fail("an id from a run whose counter was sealed before its read: " + LAYOUT.decode(id) + ", released at " + pool.reservedUntil(number));
        } catch (final ExecutionException expected) {
            // The lease is closed: nothing issued.
        }
        assertEquals(all.size(), new HashSet<>(all).size(), "no id twice");
    }

    // --- guard (b): only the owner takes from a run -----------------------------------------------------------------------

    /**
     * The owner stops inside takeFromRun after it read its run's next value; another thread asks for an id of the same
     * stream (same cycle position: the owner has not moved it yet). They must not get one counter value both.
     */
    @Test
    @Timeout(30)
    void anotherThreadNeverTakesTheValueTheOwnerIsTaking() throws Exception {
        ManualClock manual = new ManualClock(T).advanceOnPause(true);
        GatedClock clock = new GatedClock(manual, "owner");
        IdGenerator generator = new IdGenerator(LAYOUT, leaseOnWorkerId1(), clock,
                new ClockRules(CAP, CAP));
        SequenceStream stream = generator.stream("t");
        ExecutorService owner = threads.named("owner");
        on(owner, () -> {
            stream.nextId();
            manual.advance(100);
            return untilARunIsHeld(generator, stream);
        });
        clock.arm();
        Future<Long> paused = future(owner, stream::nextId);
        assertTrue(clock.paused.await(10, TimeUnit.SECONDS), "the owner stopped inside takeFromRun");
        long fromOther = on(threads.named("other"), stream::nextId);
        clock.resume.countDown();
        long fromOwner = paused.get();
        assertNotEquals(fromOther, fromOwner, "one id twice");
        assertNotEquals(fromOther >>> LAYOUT.sequenceLowBits(), fromOwner >>> LAYOUT.sequenceLowBits(), "one counter value twice");
    }

    // --- guard (c): the clock rules on a run's values ---------------------------------------------------------------------

    @Test
    @Timeout(30)
    void aRunIsNotIssuedAheadOfAClockThatMovedBack() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        IdGenerator generator = generatorWithACache(clock, leaseOnWorkerId1());
        SequenceStream stream = generator.stream("t");
        List<Long> ids = untilARunIsHeld(generator, stream);
        // The run's values lie in millisecond T; the clock steps back 10 ms behind it (within the tolerance: calls wait).
        assertEquals(T, wallClockOf(ids.get(ids.size() - 1)));
        clock.set(T - 10);
        long id = stream.nextId();
        assertTrue(wallClockOf(id) <= clock.millis(), "an id ahead of the clock: " + LAYOUT.decode(id) + ", clock " + clock.millis());
    }

    @Test
    @Timeout(30)
    void aRunIsNotIssuedBehindTheTimeCacheCap() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        IdGenerator generator = generatorWithACache(clock, leaseOnWorkerId1());
        SequenceStream stream = generator.stream("t");
        untilARunIsHeld(generator, stream);
        clock.advance(CAP + 500);
        long id = stream.nextId();
        assertTrue(wallClockOf(id) >= clock.millis() - CAP, "an id older than the cap allows: " + LAYOUT.decode(id) + ", clock " + clock.millis());
    }

    // --- guard (d): a run starts only when its millisecond gave every holding a value ------------------------------------

    /**
     * Two holdings (16 values per millisecond). One thread takes all 16 values of a millisecond (runs among them), then
     * the first value of the next (rank 0). The extra (rank 1) is given back: its release must write the millisecond of
     * its last id, not the next one, which only a run abandoned at the new millisecond's first value would reach.
     */
    @Test
    @Timeout(30)
    void aHoldingGivenBackAtAMillisecondsFirstValueReleasesItsOwnLastMillisecond() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        MemoryLeasePool pool = new MemoryLeasePool(4, clock);
        MemoryLeasePool.PoolLease lease = pool.open();
        IdGenerator generator = GeneratorTestAccess.withManualHoldings(LAYOUT, lease, clock, new ClockRules(CAP, CAP), 2);
        SequenceStream stream = generator.stream("t");
        stream.nextId();
        clock.advance(1);
        int extra = GeneratorTestAccess.addHolding(generator).orElseThrow().currentGrant().workerId();
        clock.advance(100);
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 17; i++) {
            ids.add(stream.nextId());
        }
        assertEquals(T + 1, wallClockOf(ids.get(15)));
        assertEquals(T + 2, wallClockOf(ids.get(16)), "the 17th id opens the next millisecond");
        assertTrue(GeneratorTestAccess.removeHolding(generator));
        assertReleasedAtItsLastId(pool, extra, ids);
    }

    /**
     * Three holdings (24 values per millisecond). One thread takes the values 0, 1 and 2 of a millisecond (one per
     * holding), then idles longer than the time cache's cap, takes two ids, and the newest extra (rank 2) is given back:
     * its release must write the millisecond of its last id (design.md, "Exact high-water mark per rank"). Failed on
     * eb18992 and on its parent 94e2717: the call after the idle jumped the same counter by whole milliseconds to
     * {@code now - cap}, keeping the position in the millisecond, so values 0..2 of the new millisecond were skipped,
     * and {@code Holdings.lastOfRank} counted the skipped value 2 as issued; runEnd's start condition ("at least K values
     * into its millisecond") assumed the same. Now the idle counter is replaced by one starting at the first value of
     * the millisecond jumped to, so every counter issues every value up to its last.
     */
    @Test
    @Timeout(30)
    void aHoldingGivenBackAfterTheCapsJumpReleasesItsOwnLastMillisecond() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        MemoryLeasePool pool = new MemoryLeasePool(4, clock);
        MemoryLeasePool.PoolLease lease = pool.open();
        IdGenerator generator = GeneratorTestAccess.withManualHoldings(LAYOUT, lease, clock, new ClockRules(CAP, CAP), 3);
        SequenceStream stream = generator.stream("t");
        stream.nextId();
        clock.advance(1);
        GeneratorTestAccess.addHolding(generator).orElseThrow();
        int newest = GeneratorTestAccess.addHolding(generator).orElseThrow().currentGrant().workerId();
        assertEquals(3, generator.workerIds().length);
        clock.advance(100);
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(stream.nextId());
        }
        assertEquals(T + 1, wallClockOf(ids.get(2)));
        clock.advance(2 * CAP);
        ids.add(stream.nextId());
        ids.add(stream.nextId());
        assertTrue(GeneratorTestAccess.removeHolding(generator));
        assertReleasedAtItsLastId(pool, newest, ids);
    }

    /**
     * No time cache (cap 0): the counter ends a millisecond at its last value, and the clock moves on 5 ms. The next
     * single id must come, in the clock's millisecond. On d934204 the jump, shortened by one millisecond so that the id
     * would not lie ahead, was counted from the last value: the counter was replaced in the clock's millisecond less one,
     * and the next call found that counter behind the cap, jumped it by the same shortened millisecond to the same place,
     * and replaced it again, for ever (the lease simulator hung there).
     */
    @Test
    // A thread of its own: the loop never waits, so an interrupt would not end it.
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aCounterIdlePastTheCapWhoseNextValueLiesInTheMillisecondJumpedToIssues() {
        ManualClock clock = new ManualClock(T);
        IdGenerator generator = new IdGenerator(LAYOUT, leaseOnWorkerId1(), clock,
                new ClockRules(CAP, 0));
        SequenceStream stream = generator.stream("t");
        long last = Long.MIN_VALUE;
        for (int i = 0; i < LAYOUT.sustainedIdsPerMillisecond(); i++) {
            last = stream.nextId();
        }
        assertEquals(T, wallClockOf(last), "the clock's millisecond is full");
        clock.advance(5);
        long next = stream.nextId();
        assertTrue(next > last, next + " after " + last);
        assertEquals(T + 5, wallClockOf(next), "with the cache off, the id carries the clock's millisecond");
    }

    // --- guard (e): a run ends a millisecond behind the clock -------------------------------------------------------------

    /**
     * No time cache: the counter is at the clock's millisecond, which has 8 values. Two threads take turns, the first
     * calling twice in a row each time (so it would take runs); 8 calls must get the 8 values of the millisecond without
     * any call waiting for the next one: values abandoned in runs at the clock would spend the sustained rate.
     */
    @Test
    @Timeout(30)
    void threadsTakingTurnsAtTheClockGetEveryValueOfTheMillisecond() throws Exception {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        IdGenerator generator = new IdGenerator(LAYOUT, leaseOnWorkerId1(), clock,
                new ClockRules(CAP, CAP));
        SequenceStream stream = generator.stream("t");
        ExecutorService first = threads.named("first");
        ExecutorService second = threads.named("second");
        List<Long> ids = new ArrayList<>();
        for (int turn = 0; turn < 3; turn++) {
            ids.add(on(first, stream::nextId));
            ids.add(on(first, stream::nextId));
            if (ids.size() < 8) {
                ids.add(on(second, stream::nextId));
            }
        }
        assertEquals(8, ids.size());
        for (long each : ids) {
            assertEquals(T, wallClockOf(each), "every id in the clock's millisecond, none waited for the next: " + ids.stream().map(LAYOUT::decode).toList());
        }
        assertEquals(T, clock.millis(), "no call waited for the clock");
    }

    // --- more scenarios -------------------------------------------------------------------------------------------------

    @Test
    @Timeout(30)
    void aThreadThatDiesHoldingARunLeavesTheOthersAboveIt() throws Exception {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        SwitchableLease lease = leaseOnWorkerId1();
        IdGenerator generator = generatorWithACache(clock, lease);
        SequenceStream stream = generator.stream("t");
        AtomicReference<List<Long>> fromDead = new AtomicReference<>();
        Thread dying = new Thread(() -> fromDead.set(untilARunIsHeld(generator, stream)), "dying");
        dying.start();
        dying.join(20_000);
        assertNotNull(fromDead.get());
        List<Long> all = new ArrayList<>(fromDead.get());
        long last = all.get(all.size() - 1);
        for (int i = 0; i < 20; i++) {
            long id = stream.nextId();
            assertTrue(id > last, "increasing after the dead thread's run");
            last = id;
            all.add(id);
        }
        assertEquals(all.size(), new HashSet<>(all).size());
    }

    @Test
    @Timeout(30)
    void twoStreamsTakingTurnsOnOneThreadShareItsRunAndStayIncreasing() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        IdGenerator generator = generatorWithACache(clock, leaseOnWorkerId1());
        SequenceStream order = generator.stream("t_order");
        SequenceStream item = generator.stream("t_order_item");
        List<Long> all = new ArrayList<>();
        long lastOrder = Long.MIN_VALUE;
        long lastItem = Long.MIN_VALUE;
        boolean runSeen = false;
        for (int i = 0; i < 200; i++) {
            long a = order.nextId();
            long b = item.nextId();
            assertTrue(a > lastOrder && b > lastItem && b > a);
            lastOrder = a;
            lastItem = b;
            all.add(a);
            all.add(b);
            runSeen |= liveRunOfCallingThread(generator) != null;
            if (i % 50 == 49) {
                IdBatch batch = order.nextIds(5);
                assertTrue(batch.id(0) > b);
                lastOrder = batch.id(4);
                for (int j = 0; j < batch.size(); j++) {
                    all.add(batch.id(j));
                }
            }
        }
        assertTrue(runSeen, "runs formed");
        assertEquals(all.size(), new HashSet<>(all).size());
    }

    // --- the time cache spent on runs abandoned ---------------------------------------------------------------------------

    /**
     * Cost, not safety (failed on eb18992). One thread alternates a single id and a batch of 2 (a ShardingSphere
     * connection mixing single-row and two-row INSERTs), with a time cache of 100 ms (default layout: 256 values per
     * millisecond). A batch does not go through runEnd, so it leaves {@code lastCaller} and {@code runLength} as they
     * were: every single id after it reserves a run of up to 64 (doubling to 64 and staying there), takes its first
     * value, and the batch that follows abandons the other 63. 100 rounds issue 300 ids, 300 counter values (1.2 ms of
     * the cache); on eb18992 they spent 24 ms of it (about 60 values a round), and the burst capacity
     * after idleness (the design's "2 s idle = 2000 x 256 ids ready at once") shrank accordingly. Now a batch resets the
     * hints, so the thread's single ids start again at no run.
     */
    @Test
    @Timeout(30)
    void aThreadAlternatingSingleIdsAndBatchesSpendsTheTimeCacheOnlyOnIdsIssued() {
        IdLayout layout = IdLayout.defaults();
        long t = layout.epochMillis() + 1_000_000L;
        ManualClock clock = new ManualClock(t).advanceOnPause(true);
        IdGenerator generator = new IdGenerator(layout, new SwitchableLease(new LeaseGrant(1, t, LeaseGrant.UNBOUNDED, "worker id 1")), clock,
                new ClockRules(CAP, CAP));
        SequenceStream stream = generator.stream("t");
        stream.nextId();
        clock.advance(100);
        long last = Long.MIN_VALUE;
        for (int round = 0; round < 100; round++) {
            last = stream.nextId();
            IdBatch batch = stream.nextIds(2);
            last = batch.id(1);
        }
        long spentMillis = layout.decode(last).timestamp().toEpochMilli() - t;
        // 301 ids at 256 per millisecond: the last one lies in millisecond t + 1.
        assertTrue(spentMillis <= 2, "301 ids spent " + spentMillis + " ms of the time cache (256 ids per ms)");
    }

    private static <V> Future<V> future(final ExecutorService thread, final java.util.concurrent.Callable<V> call) {
        return new Future<>(thread.submit(call));
    }

    /** A submitted call, awaited with a bound. */
    private record Future<V>(java.util.concurrent.Future<V> inner) {

        V get() throws Exception {
            return inner.get(20, TimeUnit.SECONDS);
        }
    }

    /**
     * A clock that, once armed, stops the named thread in its first read of the cached clock made from inside
     * {@code takeFromRun} (after the run's next value was read, before the counter is), until the test resumes it.
     */
    private static final class GatedClock implements WallClock {

        private final ManualClock manual;

        private final String threadName;

        private volatile boolean armed;

        final CountDownLatch paused = new CountDownLatch(1);

        final CountDownLatch resume = new CountDownLatch(1);

        GatedClock(final ManualClock manual, final String threadName) {
            this.manual = manual;
            this.threadName = threadName;
        }

        void arm() {
            armed = true;
        }

        @Override
        public long millis() {
            if (armed && Thread.currentThread().getName().equals(threadName)
                    && StackWalker.getInstance().walk(frames -> frames.limit(4).anyMatch(frame -> frame.getMethodName().equals("takeFromRun")))) {
                armed = false;
                paused.countDown();
                try {
                    resume.await(20, TimeUnit.SECONDS);
                } catch (final InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }
            return manual.millis();
        }

        @Override
        public long preciseMillis() {
            return manual.preciseMillis();
        }

        @Override
        public void parkNanos(final long nanos) {
            manual.parkNanos(nanos);
        }
    }
}
