package org.snowkey.segment.store;

import org.snowkey.keygen.segment.StartValues;
import org.snowkey.lease.testing.StartValuesFixtures;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.RangeAllocator;
import org.snowkey.keygen.segment.RangeUnavailableException;

/**
 * The allocator contract of docs/design.md ("Segment mode") against a real store. Every allocator a test opens has
 * its own pool or client, as separate processes would, and every store is fresh per test (a new table or namespace).
 */
public abstract class AbstractRangeAllocatorContractTest {

    private static final String KEY = "ds_0.t_order";

    private final Deque<AutoCloseable> closers = new ArrayDeque<>();

    /** A new allocator with its own connections, as another process would have. */
    protected abstract RangeAllocator open(String owner, StartValues starts);

    /** An allocator whose next allocation is applied by the store and then answered with an error (a lost answer). */
    protected abstract RangeAllocator openLosingNextAnswer(String owner);

    /** The store's log, read through connections of its own. */
    protected abstract RangeLog log();

    /** Deletes the key's counter (row or node) as an operator might, leaving its log alone. */
    protected abstract void deleteCounterByHand(String key) throws Exception;

    /** Closed after the test, last registered first. */
    protected final <T extends AutoCloseable> T closeLater(final T closeable) {
        closers.push(closeable);
        return closeable;
    }

    @AfterEach
    void closeAll() throws Exception {
        Exception first = null;
        while (!closers.isEmpty()) {
            try {
                closers.pop().close();
            } catch (final Exception ex) {
                if (first == null) {
                    first = ex;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @Test
    @Timeout(60)
    void sequentialAllocationsAreContiguousAndIncreasing() {
        RangeAllocator allocator = open("solo", StartValuesFixtures.everyKeyAtOne());
        List<NumberRange> ranges = new ArrayList<>();
        for (long size : new long[] {10, 1, 100, 7}) {
            ranges.add(allocator.allocate(KEY, size));
        }
        assertEquals(List.of(new NumberRange(1, 10), new NumberRange(11, 11), new NumberRange(12, 111), new NumberRange(112, 118)), ranges);
        RangeLog log = log();
        List<RangeLogEntry> entries = log.recent(KEY, 100);
        assertEquals(ranges, entries.stream().map(RangeLogEntry::range).toList());
        assertTrue(entries.stream().allMatch(each -> "solo".equals(each.owner()) && KEY.equals(each.key())), entries::toString);
        assertEquals(OptionalLong.of(119), log.nextValue(KEY));
        RangeReconciliation reconciliation = RangeReconciliation.ofLog(log, KEY, 100).requireNoOverlap();
        assertEquals(List.of(), reconciliation.gaps(), reconciliation::report);
        // The most recent entries only, still sorted by first number.
        assertEquals(ranges.subList(2, 4), log.recent(KEY, 2).stream().map(RangeLogEntry::range).toList());
    }

    @Test
    @Timeout(60)
    void keysAreIndependentAndAnyTextIsAKey() {
        RangeAllocator allocator = open("solo", StartValuesFixtures.everyKeyAtOne());
        String odd = "shop/orders %2F .. ü";
        assertEquals(new NumberRange(1, 5), allocator.allocate(KEY, 5));
        assertEquals(new NumberRange(1, 3), allocator.allocate(odd, 3));
        assertEquals(new NumberRange(6, 6), allocator.allocate(KEY, 1));
        assertEquals(new NumberRange(4, 4), allocator.allocate(odd, 1));
        assertEquals(List.of(KEY, odd).stream().sorted().toList(), log().keys());
        assertEquals(List.of(new NumberRange(1, 3), new NumberRange(4, 4)), log().recent(odd, 10).stream().map(RangeLogEntry::range).toList());
        assertThrows(IllegalArgumentException.class, () -> allocator.allocate(" ", 1));
        IllegalArgumentException badSize = assertThrows(IllegalArgumentException.class, () -> allocator.allocate(KEY, 0));
        assertTrue(badSize.getMessage().contains(KEY) && badSize.getMessage().contains("0"), badSize.getMessage());
    }

    @Test
    @Timeout(180)
    void racingAllocatorsNeverOverlapAndTheLogReconcilesWithoutGaps() throws Exception {
        int instances = 3;
        int threadsPerInstance = 3;
        int allocationsPerThread = 25;
        List<RangeAllocator> allocators = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            allocators.add(open("instance-" + i, StartValuesFixtures.everyKeyAtOne()));
        }
        ExecutorService threads = Executors.newFixedThreadPool(instances * threadsPerInstance);
        closeLater(threads::shutdownNow);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<List<NumberRange>>> results = new ArrayList<>();
        for (int i = 0; i < instances * threadsPerInstance; i++) {
            RangeAllocator allocator = allocators.get(i % instances);
            int thread = i;
            results.add(threads.submit(() -> {
                go.await();
                List<NumberRange> taken = new ArrayList<>();
                for (int n = 0; n < allocationsPerThread; n++) {
                    taken.add(allocator.allocate(KEY, 1 + (thread * 7L + n) % 13));
                }
                return taken;
            }));
        }
        go.countDown();
        List<NumberRange> received = new ArrayList<>();
        for (Future<List<NumberRange>> each : results) {
            List<NumberRange> taken = each.get(150, TimeUnit.SECONDS);
            // Within one caller, later ranges lie above earlier ones.
            for (int n = 1; n < taken.size(); n++) {
                assertTrue(taken.get(n).first() > taken.get(n - 1).last(), taken::toString);
            }
            received.addAll(taken);
        }
        assertEquals(instances * threadsPerInstance * allocationsPerThread, received.size());
        RangeReconciliation byCallers = RangeReconciliation.of(KEY, received, OptionalLong.empty()).requireNoOverlap();
        assertEquals(List.of(), byCallers.gaps(), byCallers::report);
        assertEquals(1, byCallers.ranges().get(0).first());
        RangeLog log = log();
        List<NumberRange> logged = log.recent(KEY, 10_000).stream().map(RangeLogEntry::range).toList();
        assertEquals(sorted(received), logged);
        RangeReconciliation byLog = RangeReconciliation.ofLog(log, KEY, 10_000).requireNoOverlap();
        assertEquals(List.of(), byLog.gaps(), byLog::report);
        assertEquals(OptionalLong.of(logged.get(logged.size() - 1).last() + 1), log.nextValue(KEY));
    }

    @Test
    @Timeout(60)
    void anAllocationAppliedButAnsweredWithAnErrorIsAGapNeverAnOverlap() {
        RangeAllocator healthy = open("healthy", StartValuesFixtures.everyKeyAtOne());
        RangeAllocator unlucky = openLosingNextAnswer("unlucky");
        NumberRange first = healthy.allocate(KEY, 5);
        RangeUnavailableException lost = assertThrows(RangeUnavailableException.class, () -> unlucky.allocate(KEY, 5));
        assertTrue(lost.getMessage().contains(KEY), lost.getMessage());
        NumberRange retried = unlucky.allocate(KEY, 5);
        NumberRange after = healthy.allocate(KEY, 5);
        assertEquals(new NumberRange(1, 5), first);
        assertEquals(new NumberRange(11, 15), retried);
        assertEquals(new NumberRange(16, 20), after);
        // The callers' view: the lost range is a gap, reported as such.
        RangeReconciliation byCallers = RangeReconciliation.of(KEY, List.of(first, retried, after), OptionalLong.empty()).requireNoOverlap();
        assertEquals(List.of(new NumberRange(6, 10)), byCallers.gaps(), byCallers::report);
        assertTrue(byCallers.report().contains("gap 6..10"), byCallers::report);
        // The store's view: the lost range was logged in the same step, owned by the caller that never got it.
        List<RangeLogEntry> entries = log().recent(KEY, 10);
        assertEquals(List.of(first, new NumberRange(6, 10), retried, after), entries.stream().map(RangeLogEntry::range).toList());
        assertEquals("unlucky", entries.get(1).owner());
        RangeReconciliation byLog = RangeReconciliation.ofLog(log(), KEY, 10).requireNoOverlap();
        assertEquals(List.of(), byLog.gaps(), byLog::report);
    }

    @Test
    @Timeout(60)
    void theStartValueIsHonouredAndOnlyEverRaisesACounter() {
        RangeAllocator first = open("first", new StartValues(1, Map.of(KEY, 1_000L)));
        assertEquals(new NumberRange(1_000, 1_009), first.allocate(KEY, 10));
        assertEquals(new NumberRange(1, 3), first.allocate("other", 3));
        RangeAllocator raising = open("raising", new StartValues(1, Map.of(KEY, 5_000L)));
        assertEquals(new NumberRange(5_000, 5_009), raising.allocate(KEY, 10));
        RangeAllocator lower = open("lower", new StartValues(2_000, Map.of()));
        assertEquals(new NumberRange(5_010, 5_019), lower.allocate(KEY, 10));
        assertEquals(new NumberRange(5_020, 5_020), first.allocate(KEY, 1));
        RangeReconciliation reconciliation = RangeReconciliation.ofLog(log(), KEY, 100).requireNoOverlap();
        assertEquals(List.of(new NumberRange(1_010, 4_999)), reconciliation.gaps(), reconciliation::report);
    }

    @Test
    @Timeout(60)
    void rangesStopAtTwoToTheFiftyThreeMinusOne() {
        long max = NumberRange.MAX_KEY;
        RangeAllocator allocator = open("end", new StartValues(max - 9, Map.of()));
        assertEquals(new NumberRange(max - 9, max - 6), allocator.allocate(KEY, 4));
        // Fewer numbers than asked, only because the key space ends.
        assertEquals(new NumberRange(max - 5, max), allocator.allocate(KEY, 100));
        RangeUnavailableException usedUp = assertThrows(RangeUnavailableException.class, () -> allocator.allocate(KEY, 1));
        assertTrue(usedUp.getMessage().contains(KEY) && usedUp.getMessage().contains("2^53 - 1") && usedUp.getMessage().contains("used up"), usedUp.getMessage());
        RangeAllocator huge = open("huge", StartValuesFixtures.everyKeyAtOne());
        assertEquals(new NumberRange(1, max), huge.allocate("huge", Long.MAX_VALUE));
        assertThrows(RangeUnavailableException.class, () -> huge.allocate("huge", 1));
        RangeReconciliation reconciliation = RangeReconciliation.ofLog(log(), KEY, 100).requireNoOverlap();
        assertEquals(List.of(), reconciliation.gaps(), reconciliation::report);
    }

    @Test
    @Timeout(60)
    void aCounterDeletedByHandComesBackAboveItsLog() throws Exception {
        RangeAllocator allocator = open("solo", StartValuesFixtures.everyKeyAtOne());
        assertEquals(new NumberRange(1, 10), allocator.allocate(KEY, 10));
        deleteCounterByHand(KEY);
        assertEquals(new NumberRange(11, 15), allocator.allocate(KEY, 5));
        deleteCounterByHand(KEY);
        assertEquals(new NumberRange(16, 16), open("fresh", StartValuesFixtures.everyKeyAtOne()).allocate(KEY, 1));
        RangeReconciliation reconciliation = RangeReconciliation.ofLog(log(), KEY, 100).requireNoOverlap();
        assertEquals(List.of(), reconciliation.gaps(), reconciliation::report);
    }

    private static List<NumberRange> sorted(final List<NumberRange> ranges) {
        List<NumberRange> result = new ArrayList<>(new HashSet<>(ranges));
        assertEquals(ranges.size(), result.size(), "a range was received twice");
        result.sort(Comparator.comparingLong(NumberRange::first));
        return Collections.unmodifiableList(result);
    }
}
