package org.snowkey.keygen.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.layout.DecodedId;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseUnavailableException;
import org.snowkey.keygen.lease.StaticWorkerLease;
import org.snowkey.keygen.testing.ManualClock;
import org.snowkey.keygen.testing.SwitchableLease;

class SequenceStreamTest {

    private static final IdLayout LAYOUT = IdLayout.defaults();

    private static final long T = LAYOUT.epochMillis() + 1_000_000L;

    private static IdGenerator generator(final WallClock clock, final SwitchableLease lease, final long tolerance, final long cap) {
        return new IdGenerator(LAYOUT, lease, clock, new ClockRules(tolerance, cap));
    }

    private static SwitchableLease lease(final int workerId, final long floor, final long ceiling) {
        return new SwitchableLease(new LeaseGrant(workerId, floor, ceiling, "worker id " + workerId + " of a test pool"));
    }

    @Test
    void idsOfOneStreamAreStrictlyIncreasingAndAlternateOddEven() {
        IdGenerator generator = new IdGenerator(LAYOUT, new StaticWorkerLease(5), WallClock.system(), new ClockRules(10, 10_000));
        SequenceStream stream = generator.stream("orders");
        long previous = stream.nextId();
        for (int i = 0; i < 300_000; i++) {
            long id = stream.nextId();
            assertTrue(id > previous, "id " + id + " after " + previous);
            assertEquals(1, Math.abs(id % 2 - previous % 2), "parity alternates between " + previous + " and " + id);
            assertEquals(5, LAYOUT.decode(id).workerId());
            previous = id;
        }
    }

    @Test
    void streamsAlternateParityOnTheirOwnWhenCallsInterleave() {
        IdGenerator generator = new IdGenerator(LAYOUT, new StaticWorkerLease(1), WallClock.system(), new ClockRules(10, 10_000));
        SequenceStream orders = generator.stream("orders");
        SequenceStream items = generator.stream("items");
        int[] orderParity = new int[2];
        int[] itemParity = new int[2];
        for (int i = 0; i < 10_000; i++) {
            orderParity[(int) (orders.nextId() % 2)]++;
            itemParity[(int) (items.nextId() % 2)]++;
        }
        assertEquals(5_000, orderParity[0]);
        assertEquals(5_000, itemParity[0]);
    }

    @Test
    void aBatchIsConsecutiveAndFollowedByTheNextId() {
        IdGenerator generator = new IdGenerator(LAYOUT, new StaticWorkerLease(3), WallClock.system(), new ClockRules(10, 10_000));
        SequenceStream stream = generator.stream("t");
        long before = stream.nextId();
        IdBatch batch = stream.nextIds(1000);
        assertEquals(1000, batch.size());
        long previous = before;
        for (long each : batch) {
            assertTrue(each > previous);
            assertEquals(3, LAYOUT.decode(each).workerId());
            previous = each;
        }
        assertTrue(stream.nextId() > batch.id(999));
        assertEquals(1002, stream.idsIssued());
        assertThrows(IllegalArgumentException.class, () -> stream.nextIds(0));
    }

    @Test
    void millionsOfIdsFromSeveralThreadsMixingSinglesAndBatchesNeverRepeat() throws Exception {
        IdLayout layout = IdLayout.of(10, 1, LAYOUT.epochMillis());
        IdGenerator generator = new IdGenerator(layout, new StaticWorkerLease(1023), WallClock.system(), new ClockRules(10, 10_000));
        SequenceStream stream = generator.stream("shared");
        int threads = 4;
        int perThread = 750_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<long[]>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            results.add(pool.submit(() -> {
                long[] ids = new long[perThread];
                start.await();
                int filled = 0;
                while (filled < perThread) {
                    int want = Math.min(perThread - filled, ThreadLocalRandom.current().nextInt(4) == 0 ? ThreadLocalRandom.current().nextInt(1, 2000) : 1);
                    if (want == 1) {
                        ids[filled++] = stream.nextId();
                    } else {
                        IdBatch batch = stream.nextIds(want);
                        for (int i = 0; i < want; i++) {
                            ids[filled++] = batch.id(i);
                        }
                    }
                }
                return ids;
            }));
        }
        start.countDown();
        long[] all = new long[threads * perThread];
        int offset = 0;
        for (Future<long[]> each : results) {
            long[] ids = each.get();
            for (int i = 1; i < ids.length; i++) {
                assertTrue(ids[i] > ids[i - 1], "each thread sees increasing ids");
            }
            System.arraycopy(ids, 0, all, offset, ids.length);
            offset += ids.length;
        }
        pool.shutdown();
        Arrays.sort(all);
        for (int i = 1; i < all.length; i++) {
            if (all[i] == all[i - 1]) {
                throw new AssertionError("duplicate id " + all[i] + " = " + layout.decode(all[i]));
            }
        }
    }

    @Test
    void idleTimeIsSpentByABurstWithoutWaitingForTheClock() {
        ManualClock clock = new ManualClock(T);
        IdGenerator generator = generator(clock, lease(9, T, LeaseGrant.UNBOUNDED), 10, 10_000);
        SequenceStream stream = generator.stream("t");
        stream.nextId();
        clock.advance(2_000);
        assertEquals(2_000, stream.timeCacheMillis());
        // The clock stands still: every id below comes out of the 2 s of cache (2000 ms x 256 ids: a worker id issues
        // 2^(S-L) ids per ms over all its tables, since the low bit is each table's cycle, not a fresh value).
        int perMillisecond = (int) LAYOUT.sustainedIdsPerMillisecond();
        long last = 0;
        for (int i = 0; i < 2_000; i++) {
            last = stream.nextIds(perMillisecond).id(perMillisecond - 1);
        }
        assertTrue(LAYOUT.decode(last).logicalTimestamp() <= LAYOUT.toLogical(T + 2_000), "never past the wall clock");
        assertEquals(LAYOUT.toLogical(T + 2_000), LAYOUT.decode(last).logicalTimestamp(), "the whole cache was spent");
    }

    @Test
    void theTimeCacheCapMovesTheTimestampForwardAfterLongIdleness() {
        ManualClock clock = new ManualClock(T);
        IdGenerator generator = generator(clock, lease(2, T, LeaseGrant.UNBOUNDED), 10, 100);
        SequenceStream stream = generator.stream("t");
        long first = stream.nextId();
        clock.advance(60_000);
        long second = stream.nextId();
        assertEquals(2, generator.idsIssued(), "skipped counter values are not counted as ids");
        assertEquals(T + 60_000 - 100, LAYOUT.decode(second).timestamp().toEpochMilli(), "at most 100 ms behind the clock");
        assertTrue(second > first);
        assertEquals(100, stream.timeCacheMillis());
    }

    @Test
    void aSlowStreamKeepsAlternatingParityLongAfterTheTimeCacheCapBinds() {
        ManualClock clock = new ManualClock(T);
        SequenceStream stream = generator(clock, lease(2, T, LeaseGrant.UNBOUNDED), 10, 1_000).stream("t");
        int[] parity = new int[2];
        int[] parity16 = new int[16];
        // One id per millisecond for 30 s: the stream lags the clock by more than the 1 s cap after about a second.
        for (int i = 0; i < 30_000; i++) {
            clock.advance(1);
            long id = stream.nextId();
            parity[(int) (id % 2)]++;
            assertTrue(LAYOUT.decode(id).timestamp().toEpochMilli() >= clock.millis() - 1_000, "within the cap");
        }
        assertEquals(15_000, parity[0], "id % 2 stays balanced");
    }

    @Test
    void aBatchLargerThanTheCacheAfterIdlenessEndsAtTheClockWithoutWaiting() {
        ManualClock clock = new ManualClock(T);
        SequenceStream stream = generator(clock, lease(2, T, LeaseGrant.UNBOUNDED), 10, 0).stream("t");
        stream.nextId();
        clock.advance(5_000);
        // 5 ms worth of ids with no cache allowed: taken from the last 5 ms, not waited for (the clock stands still).
        IdBatch batch = stream.nextIds(5 * (int) LAYOUT.sustainedIdsPerMillisecond());
        assertEquals(T + 5_000, LAYOUT.decode(batch.id(batch.size() - 1)).timestamp().toEpochMilli());
    }

    @Test
    void aClockMovedBackIsWaitedForWithinToleranceThenFailsWithTheReason() {
        ManualClock clock = new ManualClock(T);
        IdGenerator generator = generator(clock, lease(4, T, LeaseGrant.UNBOUNDED), 10, 10_000);
        SequenceStream stream = generator.stream("t");
        stream.nextId();
        clock.advance(100);
        // Spend the cache up to the wall clock.
        long last = 0;
        while (LAYOUT.decode(last).timestamp().toEpochMilli() < T + 100) {
            last = stream.nextIds(100).id(99);
        }
        // Back 5 ms, within the 10 ms tolerance: the call waits for the clock (which now moves on as time passes).
        clock.set(T + 95);
        clock.advanceOnPreciseRead(true);
        long afterShortStep = stream.nextIds(600).id(599);
        assertTrue(afterShortStep > last);
        assertTrue(generator.clockBackWaits() > 0, "the call waited for the clock");
        // Back 50 ms: more than the tolerance, so it fails at once and says why.
        clock.advanceOnPreciseRead(false);
        clock.set(LAYOUT.decode(afterShortStep).timestamp().toEpochMilli() - 50);
        IdUnavailableException failure = assertThrows(IdUnavailableException.class, () -> {
            for (int i = 0; i < 1_000; i++) {
                stream.nextId();
            }
        });
        assertTrue(failure.getMessage().contains("wall clock moved back 50 ms"), failure.getMessage());
        assertTrue(failure.getMessage().contains("max-tolerate-time-difference-milliseconds = 10"), failure.getMessage());
        // Once the clock is back where it was, ids flow again, still increasing.
        clock.set(LAYOUT.decode(afterShortStep).timestamp().toEpochMilli() + 1);
        assertTrue(stream.nextId() > afterShortStep);
    }

    @Test
    void neverIssuesAboveTheLeaseCeiling() {
        ManualClock clock = new ManualClock(T);
        SwitchableLease lease = lease(6, T, T + 3);
        SequenceStream stream = generator(clock, lease, 10, 10_000).stream("t");
        stream.nextId();
        clock.advance(100);
        int issued = 1;
        IdUnavailableException failure = null;
        try {
            while (issued < 10_000) {
                long id = stream.nextId();
                assertTrue(LAYOUT.decode(id).timestamp().toEpochMilli() <= T + 3, "above the ceiling: " + LAYOUT.decode(id));
                issued++;
            }
        } catch (final IdUnavailableException ex) {
            failure = ex;
        }
        assertEquals(4 * LAYOUT.sustainedIdsPerMillisecond(), issued, "exactly the ids of the four reserved milliseconds (256 a ms per worker id)");
        assertTrue(failure != null && failure.getMessage().contains("lease ceiling reached"), String.valueOf(failure));
        lease.grant().extendCeiling(T + 10);
        assertEquals(T + 4, LAYOUT.decode(stream.nextId()).timestamp().toEpochMilli(), "a renewal lets ids flow again");
    }

    @Test
    void aNewGrantContinuesAboveItsFloorAndAboveEverythingIssuedBefore() {
        ManualClock clock = new ManualClock(T);
        SwitchableLease lease = lease(8, T, LeaseGrant.UNBOUNDED);
        SequenceStream stream = generator(clock, lease, 10, 10_000).stream("t");
        stream.nextId();
        clock.advance(20);
        long before = stream.nextIds(5_000).id(4_999);
        lease.grant().revoke("lost in a test");
        assertThrows(LeaseUnavailableException.class, stream::nextId, "a revoked grant issues nothing");
        clock.advance(50);
        lease.replace(new LeaseGrant(3, T + 20, LeaseGrant.UNBOUNDED, "worker id 3"));
        long after = stream.nextId();
        DecodedId decoded = LAYOUT.decode(after);
        assertEquals(3, decoded.workerId());
        assertTrue(after > before, "the stream stays increasing across the worker id change");
        assertTrue(decoded.timestamp().toEpochMilli() >= T + 20, "not below the new floor");
    }

    @Test
    void aReleaseSealsTheStreamsAndReportsTheExactHighWaterMarkEvenUnderLoad() throws Exception {
        ManualClock clock = new ManualClock(T);
        SwitchableLease lease = lease(11, T, LeaseGrant.UNBOUNDED);
        IdGenerator generator = generator(clock, lease, 10, 10_000);
        clock.advance(5_000);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<Long>> highest = new ArrayList<>();
        CountDownLatch running = new CountDownLatch(2);
        for (String name : List.of("a", "b")) {
            highest.add(pool.submit(() -> {
                SequenceStream stream = generator.stream(name);
                long max = Long.MIN_VALUE;
                running.countDown();
                try {
                    while (true) {
                        max = Math.max(max, LAYOUT.decode(stream.nextId()).timestamp().toEpochMilli());
                    }
                } catch (final LeaseUnavailableException expected) {
                    return max;
                }
            }));
        }
        running.await();
        Thread.sleep(50);
        long highWater = lease.grant().sealForRelease("released");
        long issuedMax = Math.max(highest.get(0).get(), highest.get(1).get());
        pool.shutdown();
        assertEquals(issuedMax, highWater, "the release writes exactly the highest timestamp issued");
    }

    @Test
    void aGrantWhoseFloorLiesFurtherAheadThanTheToleranceFailsAtOnceSayingWhy() {
        // The predecessor's clock ran 3 s ahead of ours: waiting out the whole gap would block the first insert for 3 s.
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        SwitchableLease lease = lease(4, T + 3_000, LeaseGrant.UNBOUNDED);
        SequenceStream stream = generator(clock, lease, 10, 10_000).stream("t");
        IdUnavailableException failure = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(IdUnavailableException.class, stream::nextId));
        assertTrue(failure.getMessage().contains("3000 ms ahead of this clock") && failure.getMessage().contains("max-tolerate-time-difference-milliseconds = 10"),
                failure.getMessage());
        clock.advance(2_995);
        assertEquals(T + 3_000, LAYOUT.decode(stream.nextId()).timestamp().toEpochMilli(), "within the tolerance the stream waits for its floor");
    }

    @Test
    void aGrantWhoseFloorLiesAheadWithinTheToleranceWaitsForIt() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        SwitchableLease lease = lease(4, T + 8, LeaseGrant.UNBOUNDED);
        SequenceStream stream = generator(clock, lease, 10, 10_000).stream("t");
        assertEquals(T + 8, LAYOUT.decode(stream.nextId()).timestamp().toEpochMilli());
        assertTrue(clock.millis() >= T + 8, "the clock reached the floor before the first id");
    }
}
