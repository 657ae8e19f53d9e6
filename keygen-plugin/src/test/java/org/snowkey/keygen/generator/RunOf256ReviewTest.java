package org.snowkey.keygen.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.snowkey.keygen.generator.RunFixtures.field;
import static org.snowkey.keygen.generator.RunFixtures.on;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.testing.ManualClock;
import org.snowkey.keygen.testing.MemoryLeasePool;
import org.snowkey.keygen.testing.SwitchableLease;

/**
 * Review of commit 338a76d: runs reach 256 counter values (were 64). The layout has 4096 ids per millisecond and worker
 * id (W = 10, L = 0), so runs reach their longest; each scenario checks that a run of 256 was reserved before the step it
 * is about.
 */
class RunOf256ReviewTest {

    private static final IdLayout LAYOUT = IdLayout.of(10, 0, IdLayout.defaults().epochMillis());

    private static final int PER_MS = 4096;

    private static final long T = LAYOUT.epochMillis() + 1_000_000L;

    private static final long CAP = 1_000;

    private final RunFixtures.Threads threads = new RunFixtures.Threads();

    @AfterEach
    void stopThreads() {
        threads.stopAll();
    }

    private static long wallClockOf(final long id) {
        return LAYOUT.decode(id).timestamp().toEpochMilli();
    }

    private static int runLength(final IdGenerator generator) {
        try {
            Object counter = field(IdSpace.class, "grantCounter").get(generator.idSpace());
            return field(counter.getClass(), "runLength").getInt(counter);
        } catch (final ReflectiveOperationException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** Checks ids in the order they were issued: unique, strictly increasing, none ahead of {@code clockMillis}. */
    private static void assertIncreasingUniqueNotAhead(final List<Long> ids, final long clockMillis) {
        Set<Long> seen = new HashSet<>();
        long previous = -1;
        for (int i = 0; i < ids.size(); i++) {
            long id = ids.get(i);
            long before = previous;
            int at = i;
            assertTrue(seen.add(id), () -> "id issued twice at " + at + ": " + LAYOUT.decode(id));
            assertTrue(id > before, () -> "not increasing at " + at + ": " + LAYOUT.decode(before) + " then " + LAYOUT.decode(id));
            assertTrue(wallClockOf(id) <= clockMillis, () -> "ahead of the clock at " + at + ": " + LAYOUT.decode(id));
            previous = id;
        }
    }

    /** A generator with {@code holdings} holdings (worker ids of a pool of 8), lagging the clock by 100 ms. */
    private static IdGenerator generatorWithHoldings(final ManualClock clock, final MemoryLeasePool pool, final int holdings) {
        IdGenerator generator = GeneratorTestAccess.withManualHoldings(LAYOUT, pool.open(), clock, new ClockRules(CAP, CAP), holdings);
        generator.nextId();
        clock.advance(1);
        for (int i = 1; i < holdings; i++) {
            GeneratorTestAccess.addHolding(generator).orElseThrow();
        }
        clock.advance(100);
        return generator;
    }

    /** Three holdings (12288 values a millisecond, not a power of two): one thread's runs of 256 cross several milliseconds. */
    @Test
    @Timeout(60)
    void runsOf256OnThreeHoldingsAcrossMillisecondsStayUniqueAndIncreasing() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        IdGenerator generator = generatorWithHoldings(clock, new MemoryLeasePool(8, clock), 3);
        SequenceStream stream = generator.stream("t");
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 3 * PER_MS * 5 + 77; i++) {
            ids.add(stream.nextId());
        }
        assertEquals(256, runLength(generator), "runs of 256 formed");
        assertTrue(wallClockOf(ids.get(ids.size() - 1)) - wallClockOf(ids.get(0)) >= 4, "the ids span milliseconds");
        assertIncreasingUniqueNotAhead(ids, clock.millis());
    }

    /** Two threads taking turns in bursts of 1000 (each burst reaches runs of 256, the other's burst abandons them). */
    @Test
    @Timeout(60)
    void twoThreadsTakingTurnsInBurstsStayUniqueAndIncreasing() throws Exception {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        IdGenerator generator = generatorWithHoldings(clock, new MemoryLeasePool(8, clock), 3);
        SequenceStream stream = generator.stream("t");
        ExecutorService a = threads.named("a");
        ExecutorService b = threads.named("b");
        List<Long> ids = new ArrayList<>();
        for (int turn = 0; turn < 40; turn++) {
            ids.addAll(on(turn % 2 == 0 ? a : b, () -> {
                List<Long> burst = new ArrayList<>();
                for (int i = 0; i < 1000; i++) {
                    burst.add(stream.nextId());
                }
                return burst;
            }));
        }
        assertIncreasingUniqueNotAhead(ids, clock.millis());
    }

    /** A ceiling two milliseconds into the time cache: every value up to it is issued, none past it (runs clamp at it). */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void runsOf256StopAtTheCeiling() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        long ceiling = T + 2;
        IdGenerator generator = new IdGenerator(LAYOUT, new SwitchableLease(new LeaseGrant(1, T, ceiling, "worker id 1")), clock, new ClockRules(CAP, CAP));
        SequenceStream stream = generator.stream("t");
        List<Long> ids = new ArrayList<>();
        ids.add(stream.nextId());
        clock.advance(100);
        long firstSequence = LAYOUT.decode(ids.get(0)).sequence();
        long left = (PER_MS - 1 - firstSequence) + 2L * PER_MS;
        for (long i = 0; i < left; i++) {
            ids.add(stream.nextId());
        }
        assertEquals(256, runLength(generator), "runs of 256 formed");
        assertEquals(ceiling, wallClockOf(ids.get(ids.size() - 1)), "the last value below the ceiling issued");
        assertEquals(PER_MS - 1, LAYOUT.decode(ids.get(ids.size() - 1)).sequence());
        for (long each : ids) {
            assertTrue(wallClockOf(each) <= ceiling, "past the ceiling: " + LAYOUT.decode(each));
        }
        assertIncreasingUniqueNotAhead(ids, clock.millis());
    }

    /** The clock moves back 5 ms while a run of 256 is held: no id ahead of the clock, and the ids stay increasing. */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aClockMovedBackDuringARunOf256() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        IdGenerator generator = new IdGenerator(LAYOUT, new SwitchableLease(new LeaseGrant(1, T, LeaseGrant.UNBOUNDED, "worker id 1")), clock,
                new ClockRules(CAP, CAP));
        SequenceStream stream = generator.stream("t");
        List<Long> ids = new ArrayList<>();
        ids.add(stream.nextId());
        clock.advance(3);
        while (runLength(generator) < 256) {
            ids.add(stream.nextId());
        }
        assertTrue(ids.size() < PER_MS, "a run of 256 inside the time cache");
        clock.set(wallClockOf(ids.get(ids.size() - 1)) - 2);
        long back = clock.millis();
        long next = stream.nextId();
        assertTrue(wallClockOf(next) <= Math.max(back, clock.millis()), "an id ahead of the clock moved back: " + LAYOUT.decode(next));
        ids.add(next);
        for (int i = 0; i < 600; i++) {
            ids.add(stream.nextId());
        }
        assertIncreasingUniqueNotAhead(ids, clock.millis());
    }

    /** An extra holding dropped while a run of 256 is held: ids stay increasing, and the extra released at or above its last id. */
    @Test
    @Timeout(60)
    void anExtraHoldingDroppedMidRunOf256() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        MemoryLeasePool pool = new MemoryLeasePool(8, clock);
        IdGenerator generator = generatorWithHoldings(clock, pool, 3);
        List<Integer> workerIds = new ArrayList<>();
        GeneratorTestAccess.holdingGrants(generator).forEach(grant -> workerIds.add(grant.workerId()));
        SequenceStream stream = generator.stream("t");
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 3 * PER_MS + 300; i++) {
            ids.add(stream.nextId());
        }
        assertEquals(256, runLength(generator), "runs of 256 formed");
        assertTrue(GeneratorTestAccess.removeHolding(generator));
        List<Integer> after = new ArrayList<>();
        GeneratorTestAccess.holdingGrants(generator).forEach(grant -> after.add(grant.workerId()));
        workerIds.removeAll(after);
        if (workerIds.size() != 1) {
            fail("one holding dropped: " + workerIds + " (left " + after + ")");
        }
        int dropped = workerIds.get(0);
        long lastOfDropped = Long.MIN_VALUE;
        for (long each : ids) {
            if (LAYOUT.decode(each).workerId() == dropped) {
                lastOfDropped = Math.max(lastOfDropped, wallClockOf(each));
            }
        }
        for (int i = 0; i < 2 * PER_MS; i++) {
            long id = stream.nextId();
            assertTrue(LAYOUT.decode(id).workerId() != dropped, "an id of the dropped worker id after the drop: " + LAYOUT.decode(id));
            ids.add(id);
        }
        assertTrue(pool.reservedUntil(dropped).orElseThrow() >= lastOfDropped, "the dropped worker id released below its last id");
        assertIncreasingUniqueNotAhead(ids, clock.millis());
    }
}
