package org.snowkey.keygen.generator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.layout.DecodedId;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.testing.ManualClock;
import org.snowkey.keygen.testing.MemoryLeasePool;

/**
 * A generator on several worker ids of its pool (docs/design.md, "Holdings: more worker ids for a hot generator"):
 * growth under demand, ids unique per worker id and increasing per stream across every change of the set, each
 * holding's release above everything it issued, drops of holdings in doubt, shrinking, and the pool's free quarter.
 */
class HoldingsTest {

    private static final long START = 1_800_000_000_000L;

    /** 4 worker-id bits: a pool of 16 numbers. 18 sequence bits, 1 low bit: 2^17 ids per ms per worker id. */
    private static final IdLayout SMALL_POOL = IdLayout.of(4, 1, 1_700_000_000_000L);

    private final ManualClock clock = new ManualClock(START).advanceOnPause(true);

    private final MemoryLeasePool pool = new MemoryLeasePool(SMALL_POOL.workerIdCount(), clock);

    private IdGenerator generator(final int maxWorkerIds) {
        return new IdGenerator(SMALL_POOL, pool.open(), clock, new ClockRules(10, 0), maxWorkerIds, null);
    }

    /**
     * Runs the stream at its cap (every call takes a whole millisecond of every holding, so the next waits for the clock:
     * no time cache) for as many checks as growth needs, keeping the first and last id of each batch.
     */
    private static void runHot(final IdGenerator generator, final List<Long> into) {
        for (int tick = 0; tick < HoldingsGrowth.HOT_TICKS_TO_GROW; tick++) {
            for (int i = 0; i < 3; i++) {
                IdBatch batch = generator.nextIds((int) (generator.layout().sustainedIdsPerMillisecond() * Math.max(1, generator.workerIds().length)));
                // The ends of each batch: the batch itself increases by construction (aBatchSpreadOverTheHoldings...).
                into.add(batch.id(0));
                into.add(batch.id(batch.size() - 1));
            }
            generator.growth().tick();
        }
    }

    @Test
    void aStreamAtItsCapDoublesItsHoldingsUpToTheMaximum() {
        IdGenerator generator = generator(4);
        List<Long> ids = new ArrayList<>();
        ids.add(generator.nextId());
        assertEquals(1, generator.workerIds().length);
        runHot(generator, ids);
        assertEquals(2, generator.workerIds().length);
        runHot(generator, ids);
        assertEquals(4, generator.workerIds().length);
        runHot(generator, ids);
        assertEquals(4, generator.workerIds().length, "at most max-worker-ids-per-instance");
        assertUniqueAndIncreasing(generator, ids);
        assertEquals(4, pool.held().size());
    }

    @Test
    void idsOfSeveralHoldingsInterleaveTheirWorkerIdsAndEachWorkerIdGetsEachHighCounterOnce() {
        IdGenerator generator = generator(4);
        List<Long> ids = new ArrayList<>();
        runHot(generator, ids);
        runHot(generator, ids);
        List<Long> tail = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            tail.add(generator.stream("t_order").nextId());
        }
        tail.addAll(generator.stream("t_order").nextIds(777));
        Set<Integer> workerIds = new HashSet<>();
        Map<Integer, Integer> lowBits = new HashMap<>();
        for (long each : tail) {
            DecodedId decoded = generator.decode(each);
            workerIds.add(decoded.workerId());
            lowBits.merge((int) (each & 1), 1, Integer::sum);
        }
        assertEquals(4, workerIds.size(), "one stream issues on every holding");
        assertTrue(Math.abs(lowBits.get(0) - lowBits.get(1)) <= 1, "id % 2 stays balanced per stream: " + lowBits);
        ids.addAll(tail);
        assertUniqueAndIncreasing(generator, ids);
    }

    @Test
    void aBatchSpreadOverTheHoldingsIsTheSameAsSingleIdsOneAfterTheOther() {
        IdGenerator generator = generator(2);
        List<Long> ids = new ArrayList<>();
        runHot(generator, ids);
        assertEquals(2, generator.workerIds().length);
        IdBatch batch = generator.stream("t").nextIds(9);
        long single = generator.stream("t").nextId();
        for (int i = 1; i < batch.size(); i++) {
            assertTrue(batch.id(i) > batch.id(i - 1));
            assertTrue(generator.decode(batch.id(i)).workerId() != generator.decode(batch.id(i - 1)).workerId(), "consecutive ids alternate holdings");
        }
        assertTrue(single > batch.id(8));
    }

    @Test
    void anExtraHoldingWhoseGrantIsRevokedIsDroppedAndTheStreamGoesOnOnTheOthers() {
        IdGenerator generator = generator(4);
        List<Long> ids = new ArrayList<>();
        runHot(generator, ids);
        runHot(generator, ids);
        MemoryLeasePool.PoolLease extra = extraLeases(generator).get(0);
        int lost = extra.grant().workerId();
        extra.grant().revoke("lost (test)");
        List<Long> after = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            after.add(generator.nextId());
        }
        for (long each : after) {
            assertTrue(generator.decode(each).workerId() != lost, "no id on the revoked holding");
        }
        assertEquals(3, generator.workerIds().length);
        assertFalse(contains(generator.workerIds(), lost));
        assertTrue(extra.isClosed(), "the dropped holding's lease is closed");
        ids.addAll(after);
        assertUniqueAndIncreasing(generator, ids);
    }

    @Test
    void anExtraHoldingAtItsCeilingIsDroppedInsteadOfBlockingTheStream() {
        IdGenerator generator = generator(2);
        List<Long> ids = new ArrayList<>();
        ids.add(generator.nextId());
        // The extra's registry stops renewing it 50 ms from now; the lease's own worker id stays renewed.
        pool.boundNewGrants(clock.millis() + 50);
        runHot(generator, ids);
        assertEquals(2, generator.workerIds().length);
        MemoryLeasePool.PoolLease extra = extraLeases(generator).get(0);
        int stuck = extra.grant().workerId();
        clock.advance(1000);
        for (int i = 0; i < 10; i++) {
            ids.add(generator.nextId());
        }
        assertEquals(1, generator.workerIds().length, "the holding in doubt was dropped");
        assertFalse(contains(generator.workerIds(), stuck));
        for (long each : ids) {
            DecodedId decoded = generator.decode(each);
            if (decoded.workerId() == stuck) {
                assertTrue(decoded.timestamp().toEpochMilli() <= extra.grant().ceilingMillis(), "no id of the stuck holding above its ceiling");
            }
        }
        assertUniqueAndIncreasing(generator, ids);
    }

    @Test
    void everyHoldingGivenBackStartsItsNextHolderAboveEverythingItIssued() {
        IdGenerator generator = generator(4);
        List<Long> ids = new ArrayList<>();
        runHot(generator, ids);
        runHot(generator, ids);
        for (int i = 0; i < 20; i++) {
            ids.add(generator.nextId());
        }
        for (int tick = 0; tick < HoldingsGrowth.IDLE_TICKS_TO_SHRINK; tick++) {
            generator.growth().tick();
        }
        assertEquals(2, generator.workerIds().length, "half the holdings given back after an idle period");
        Map<Integer, Long> lastTimestamp = new HashMap<>();
        for (long each : ids) {
            DecodedId decoded = generator.decode(each);
            lastTimestamp.merge(decoded.workerId(), decoded.timestamp().toEpochMilli(), Math::max);
        }
        for (MemoryLeasePool.PoolLease each : pool.opened()) {
            if (each.isClosed()) {
                int workerId = each.grant().workerId();
                long reserved = pool.reservedUntil(workerId).orElseThrow();
                assertTrue(reserved >= lastTimestamp.getOrDefault(workerId, Long.MIN_VALUE), "worker id " + workerId + " released at or above its last id");
            }
        }
        // The numbers given back are taken by another instance: its ids are above every id they carried here.
        IdGenerator other = generator(1);
        List<Long> others = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            others.add(other.nextId());
        }
        ids.addAll(others);
        assertEquals(ids.size(), new HashSet<>(ids).size());
    }

    @Test
    void aPoolKeepsAQuarterOfItsNumbersFree() {
        for (int i = 0; i < 9; i++) {
            pool.occupy();
        }
        IdGenerator generator = generator(8);
        List<Long> ids = new ArrayList<>();
        ids.add(generator.nextId());
        // 10 of 16 held, 6 free, and 4 (a quarter) stay free: two more for this generator, one at a time.
        runHot(generator, ids);
        assertEquals(2, generator.workerIds().length);
        runHot(generator, ids);
        assertEquals(3, generator.workerIds().length);
        runHot(generator, ids);
        assertEquals(3, generator.workerIds().length, "the pool's last quarter is not taken");
        assertEquals(12, pool.held().size());
        assertUniqueAndIncreasing(generator, ids);
    }

    @Test
    void closingTheGeneratorReleasesEveryHoldingAndIssuesNoMore() {
        IdGenerator generator = generator(4);
        List<Long> ids = new ArrayList<>();
        runHot(generator, ids);
        runHot(generator, ids);
        generator.close();
        assertTrue(pool.held().isEmpty());
        assertTrue(pool.opened().stream().allMatch(MemoryLeasePool.PoolLease::isClosed));
        assertThrows(RuntimeException.class, generator::nextId);
        generator.growth().tick();
        assertTrue(pool.held().isEmpty(), "no growth after close");
    }

    @Test
    void aStaticWorkerIdNeverGrows() {
        IdGenerator generator = new IdGenerator(SMALL_POOL, new org.snowkey.keygen.testing.SwitchableLease(
                new LeaseGrant(3, START, LeaseGrant.UNBOUNDED, "static")), clock, new ClockRules(10, 0), 4, null);
        assertNull(generator.growth(), "a lease that opens no siblings gets no growth checks");
        for (int i = 0; i < 10; i++) {
            generator.nextIds((int) SMALL_POOL.sustainedIdsPerMillisecond());
        }
        assertArrayEquals(new int[] {3}, generator.workerIds());
    }

    @Test
    void anExtraOnTheNumberTheLeaseClaimedAgainAfterTheExtrasRecordExpiredIsDroppedAndIdsFlowOnIt() {
        IdGenerator generator = generator(2);
        MemoryLeasePool.PoolLease primary = (MemoryLeasePool.PoolLease) generator.lease();
        List<Long> ids = new ArrayList<>();
        ids.add(generator.nextId());
        assertArrayEquals(new int[] {0}, generator.workerIds());
        // The extra's registry renews it up to 50 ms from now and no further; the lease's own grants stay renewed.
        pool.boundNewGrants(clock.millis() + 50);
        runHot(generator, ids);
        pool.boundNewGrants(LeaseGrant.UNBOUNDED);
        assertArrayEquals(new int[] {0, 1}, generator.workerIds());
        MemoryLeasePool.PoolLease extra = extraLeases(generator).get(0);
        // Number 1's record expires in the registry while its grant here stays in force (nothing asked for it since);
        // the lease loses number 0 to another instance and, past the extra's ceiling, claims number 1.
        extra.expireUnnoticed();
        primary.lose();
        pool.occupy();
        clock.advance(100);
        for (int i = 0; i < 10; i++) {
            ids.add(generator.nextId());
        }
        assertArrayEquals(new int[] {1}, generator.workerIds(), "the lease's new grant alone: the extra on its number was dropped");
        assertEquals(1, primary.grant().workerId());
        assertTrue(extra.isClosed(), "the dropped extra's lease is closed");
        assertUniqueAndIncreasing(generator, ids);
    }

    @Test
    void anExtraWhoseFloorLiesAheadOfThisClockIsGivenBackInsteadOfStallingEveryStream() {
        IdGenerator generator = generator(2);
        List<Long> ids = new ArrayList<>();
        ids.add(generator.nextId());
        // Number 1's last holder ran an hour ahead of this clock: its next grant starts an hour from now.
        pool.releasedAhead(1, clock.millis() + 3_600_000L);
        runHot(generator, ids);
        for (int i = 0; i < 10; i++) {
            ids.add(generator.nextId());
        }
        ids.addAll(generator.nextIds(100));
        assertArrayEquals(new int[] {0}, generator.workerIds(), "the extra was given back, not issued on");
        assertEquals(List.of(0), pool.held());
        assertTrue(extraLeases(generator).isEmpty(), "the extra's lease is closed");
        assertUniqueAndIncreasing(generator, ids);
    }

    @Test
    void anExtraStartsAtItsFloorEvenWhenTheClockStepsBackAsItIsAdded() {
        SteppingClock stepping = new SteppingClock(clock);
        IdGenerator generator = new IdGenerator(SMALL_POOL, pool.open(), stepping, new ClockRules(10, 0), 2, null);
        List<Long> ids = new ArrayList<>();
        ids.add(generator.nextId());
        clock.advance(1_000);
        // Number 1's last holder issued up to the millisecond before this one: the extra's floor is now.
        pool.releasedAhead(1, clock.millis() - 1);
        // The clock steps back 5 ms (NTP) between the addition's check of the extra's floor and the next counter's start.
        stepping.stepBackAfterNextPreciseRead(5);
        MemoryLeasePool.PoolLease extra = (MemoryLeasePool.PoolLease) GeneratorTestAccess.addHolding(generator).orElseThrow();
        assertArrayEquals(new int[] {0, 1}, generator.workerIds());
        ids.addAll(generator.nextIds(8));
        for (long each : ids) {
            DecodedId decoded = generator.decode(each);
            if (decoded.workerId() == 1) {
                assertTrue(decoded.timestamp().toEpochMilli() >= extra.grant().floorMillis(),
                        "no id of the extra below its floor (its previous holder's): " + decoded + ", " + extra.grant());
            }
        }
        assertUniqueAndIncreasing(generator, ids);
    }

    @Test
    void anExtraRevokedWhileTheNextCounterStartsIssuesNothingMore() {
        SteppingClock stepping = new SteppingClock(clock);
        IdGenerator generator = new IdGenerator(SMALL_POOL, pool.open(), stepping, new ClockRules(10, 0), 3, null);
        List<Long> ids = new ArrayList<>();
        ids.add(generator.nextId());
        MemoryLeasePool.PoolLease kept = (MemoryLeasePool.PoolLease) GeneratorTestAccess.addHolding(generator).orElseThrow();
        GeneratorTestAccess.addHolding(generator).orElseThrow();
        assertArrayEquals(new int[] {0, 1, 2}, generator.workerIds());
        ids.addAll(generator.nextIds(6));
        int lost = kept.grant().workerId();
        // Giving the newest extra back starts the next counter on the others. The kept extra's grant is revoked after
        // the checks of the extras and before the counter attaches to it: the attachment itself must see it.
        stepping.runAfterNextPreciseRead(() -> kept.grant().revoke("lost (test)"));
        assertTrue(GeneratorTestAccess.removeHolding(generator));
        List<Long> after = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            after.add(generator.nextId());
        }
        after.addAll(generator.nextIds(8));
        for (long each : after) {
            assertTrue(generator.decode(each).workerId() != lost, "no id on the revoked holding: " + generator.decode(each));
        }
        assertArrayEquals(new int[] {0}, generator.workerIds());
        assertTrue(kept.isClosed(), "the dropped holding's lease is closed");
        ids.addAll(after);
        assertUniqueAndIncreasing(generator, ids);
    }

    @Test
    void anExtraGivenBackWhileTheLeaseCannotGetANumberIsStillReleased() {
        IdGenerator generator = generator(2);
        MemoryLeasePool.PoolLease primary = (MemoryLeasePool.PoolLease) generator.lease();
        List<Long> ids = new ArrayList<>();
        ids.add(generator.nextId());
        runHot(generator, ids);
        assertArrayEquals(new int[] {0, 1}, generator.workerIds());
        MemoryLeasePool.PoolLease extra = extraLeases(generator).get(0);
        // The lease loses its number and every other number is taken: its next grant cannot be had for now.
        primary.lose();
        while (pool.held().size() < SMALL_POOL.workerIdCount()) {
            pool.occupy();
        }
        for (int tick = 0; tick < HoldingsGrowth.IDLE_TICKS_TO_SHRINK; tick++) {
            generator.growth().tick();
        }
        assertTrue(extra.isClosed(), "the extra given back is released, not left renewing its number");
        long lastOnExtra = Long.MIN_VALUE;
        for (long each : ids) {
            DecodedId decoded = generator.decode(each);
            if (decoded.workerId() == 1) {
                lastOnExtra = Math.max(lastOnExtra, decoded.timestamp().toEpochMilli());
            }
        }
        assertTrue(pool.reservedUntil(1).orElseThrow() >= lastOnExtra, "released at or above its last id");
        // The number given back is the only free one: the lease takes it, above everything the extra issued on it.
        ids.add(generator.nextId());
        assertArrayEquals(new int[] {1}, generator.workerIds());
        assertUniqueAndIncreasing(generator, ids);
    }

    /** A wall clock that steps back (NTP), or lets something else happen, right after one chosen precise read. */
    private static final class SteppingClock implements WallClock {

        private final ManualClock clock;

        private long stepBack;

        private Runnable meanwhile;

        SteppingClock(final ManualClock clock) {
            this.clock = clock;
        }

        void stepBackAfterNextPreciseRead(final long millis) {
            stepBack = millis;
        }

        void runAfterNextPreciseRead(final Runnable action) {
            meanwhile = action;
        }

        @Override
        public long millis() {
            return clock.millis();
        }

        @Override
        public long preciseMillis() {
            long now = clock.preciseMillis();
            if (stepBack > 0) {
                clock.advance(-stepBack);
                stepBack = 0;
            }
            Runnable action = meanwhile;
            meanwhile = null;
            if (action != null) {
                action.run();
            }
            return now;
        }

        @Override
        public void parkNanos(final long nanos) {
            clock.parkNanos(nanos);
        }
    }

    private List<MemoryLeasePool.PoolLease> extraLeases(final IdGenerator generator) {
        List<MemoryLeasePool.PoolLease> extras = new ArrayList<>();
        for (MemoryLeasePool.PoolLease each : pool.opened()) {
            if (each != generator.lease() && !each.isClosed()) {
                extras.add(each);
            }
        }
        return extras;
    }

    private static boolean contains(final int[] values, final int value) {
        for (int each : values) {
            if (each == value) {
                return true;
            }
        }
        return false;
    }

    /** Unique, and increasing in issue order; and no worker id got one timestamp and high sequence twice. */
    private static void assertUniqueAndIncreasing(final IdGenerator generator, final List<Long> ids) {
        assertEquals(ids.size(), new HashSet<>(ids).size(), "unique");
        for (int i = 1; i < ids.size(); i++) {
            assertTrue(ids.get(i) > ids.get(i - 1), "increasing at " + i);
        }
        Set<String> highs = new HashSet<>();
        for (long each : ids) {
            DecodedId decoded = generator.decode(each);
            assertTrue(highs.add(decoded.workerId() + "/" + decoded.timestamp() + "/" + (decoded.sequence() >> 1)),
                    "one high counter value once per worker id: " + decoded);
        }
    }
}
