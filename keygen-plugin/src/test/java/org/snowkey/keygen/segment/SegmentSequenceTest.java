package org.snowkey.keygen.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.clock.WallClock;

@Timeout(60)
class SegmentSequenceTest {

    private final ExecutorService fetches = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "segment-fetch");
        thread.setDaemon(true);
        return thread;
    });

    private final MemoryRangeAllocator allocator = new MemoryRangeAllocator();

    @AfterEach
    void stopFetches() {
        fetches.shutdownNow();
    }

    private SegmentSequence sequence(final long step, final int prefetchPercent, final long fetchTimeoutMillis) {
        return new SegmentSequence("db.t_order", allocator, new SegmentSettings(step, step, 10_000, prefetchPercent, fetchTimeoutMillis),
                WallClock.system(), fetches);
    }

    @Test
    void oneThreadGetsEveryKeyOnceInOrderAcrossManyRanges() {
        SegmentSequence sequence = sequence(7, 50, 5_000);
        for (long expected = 1; expected <= 1_000; expected++) {
            assertEquals(expected, sequence.nextId());
        }
        assertEquals(1_000, sequence.issued());
    }

    @Test
    void aBatchInsideARangeIsOneContiguousSlice() {
        SegmentSequence sequence = sequence(10_000, 10, 5_000);
        sequence.nextId();
        SegmentBatch batch = sequence.nextIds(1_000);
        assertEquals(LongStream.rangeClosed(2, 1_001).boxed().toList(), batch);
    }

    @Test
    void aBatchLargerThanARangeCrossesRangesAndStaysInOrder() {
        SegmentSequence sequence = sequence(10, 10, 5_000);
        sequence.nextIds(3);
        SegmentBatch batch = sequence.nextIds(95);
        assertEquals(LongStream.rangeClosed(4, 98).boxed().toList(), batch);
        assertEquals(99, sequence.nextId());
    }

    @Test
    void threadsAndBatchesNeverShareAKeyAndEachThreadSeesItsKeysIncrease() throws Exception {
        SegmentSequence sequence = sequence(13, 30, 10_000);
        int threads = 4;
        ConcurrentLinkedQueue<List<Long>> perThread = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int batchSize = t + 1;
            Thread worker = new Thread(() -> {
                List<Long> keys = new ArrayList<>();
                try {
                    start.await();
                } catch (final InterruptedException ex) {
                    return;
                }
                for (int i = 0; i < 5_000; i++) {
                    if (batchSize == 1) {
                        keys.add(sequence.nextId());
                    } else {
                        keys.addAll(sequence.nextIds(batchSize));
                    }
                }
                perThread.add(keys);
            });
            workers.add(worker);
            worker.start();
        }
        start.countDown();
        for (Thread each : workers) {
            each.join();
        }
        Set<Long> all = new HashSet<>();
        long total = 0;
        for (List<Long> keys : perThread) {
            for (int i = 1; i < keys.size(); i++) {
                assertTrue(keys.get(i) > keys.get(i - 1), "a thread's keys increase: " + keys.get(i - 1) + " then " + keys.get(i));
            }
            all.addAll(keys);
            total += keys.size();
        }
        assertEquals(threads, perThread.size());
        assertEquals(total, all.size(), "no key twice");
        assertEquals(total, sequence.issued());
    }

    @Test
    void twoInstancesOnOneAllocatorNeverShareAKey() {
        SegmentSequence first = sequence(5, 10, 5_000);
        SegmentSequence second = sequence(8, 10, 5_000);
        Set<Long> keys = new HashSet<>();
        for (int i = 0; i < 2_000; i++) {
            assertTrue(keys.add(first.nextId()));
            assertTrue(keys.add(second.nextId()));
        }
    }

    @Test
    void theNextRangeIsFetchedInTheBackgroundOnceThePrefetchPointIsTaken() throws Exception {
        SegmentSequence sequence = sequence(100, 20, 5_000);
        sequence.nextId();
        Semaphore gate = new Semaphore(0);
        allocator.gate = gate;
        for (int i = 2; i <= 19; i++) {
            sequence.nextId();
        }
        assertEquals(1, allocator.calls.get(), "below the prefetch point (key 20 of 1..100) only the first range was asked for");
        assertEquals(20, sequence.nextId());
        awaitCalls(2);
        assertEquals(80, sequence.remaining(), "the next range is in flight, not yet in memory");
        gate.release();
        awaitRemaining(sequence, 180);
        allocator.gate = null;
        for (long expected = 21; expected <= 150; expected++) {
            assertEquals(expected, sequence.nextId());
        }
    }

    @Test
    void anOutageIsRiddenOutOnTheBuffersThenFailsNamingKeyAllocatorAndCauseThenRecovers() throws Exception {
        SegmentSequence sequence = sequence(50, 10, 300);
        sequence.nextIds(10);
        awaitRemaining(sequence, 90);
        allocator.down = true;
        List<Long> duringOutage = new ArrayList<>(sequence.nextIds(90));
        assertEquals(LongStream.rangeClosed(11, 100).boxed().toList(), duringOutage, "the runway: every key already in memory");
        RangeUnavailableException failure = assertThrows(RangeUnavailableException.class, sequence::nextId);
        assertTrue(failure.getMessage().contains("'db.t_order'") && failure.getMessage().contains("memory allocator")
                && failure.getMessage().contains("memory allocator is down") && failure.getMessage().contains("segment-fetch-timeout-milliseconds = 300"),
                failure.getMessage());
        allocator.down = false;
        long next = nextIdOnceRecovered(sequence);
        assertTrue(next > 100, "keys continue above the ranges before the outage: " + next);
        assertTrue(sequence.status().fetchFailures() > 0);
    }

    @Test
    void anAllocationWhoseAnswerWasLostIsAGapNeverAnOverlap() {
        SegmentSequence sequence = sequence(10, 10, 5_000);
        allocator.applyThenFailOnce = true;
        assertEquals(11, sequence.nextId(), "the first range was applied but its answer lost: the retry gets the next one");
        Set<Long> keys = new HashSet<>(List.of(11L));
        for (int i = 0; i < 100; i++) {
            assertTrue(keys.add(sequence.nextId()));
        }
        NumberRange lost = allocator.handedOut().get(0);
        assertTrue(keys.stream().noneMatch(each -> each >= lost.first() && each <= lost.last()), "the lost range " + lost + " is never issued");
    }

    @Test
    void anAllocatorThatRepeatsARangeStopsTheSequenceInsteadOfIssuingItTwice() throws Exception {
        SegmentSequence sequence = sequence(10, 10, 2_000);
        assertEquals(1, sequence.nextId());
        awaitRemaining(sequence, 19);
        allocator.repeatLastOnce = true;
        for (int i = 0; i < 19; i++) {
            sequence.nextId();
        }
        RangeUnavailableException failure = assertThrows(RangeUnavailableException.class, sequence::nextId);
        assertTrue(failure.getMessage().contains("does not lie above"), failure.getMessage());
        RangeUnavailableException again = assertThrows(RangeUnavailableException.class, sequence::nextId);
        assertTrue(again.getMessage().contains("stopped"), again.getMessage());
    }

    /**
     * A sequence closed (its scope's last owner left: a rule change, a data source closed) while a caller waits for a
     * fetch in flight. The range that arrives late belongs to nobody any more: a caller still holding the closed
     * sequence must not issue from it, or keys below the ones a later sequence of the same key has issued would come
     * after them in this JVM.
     */
    @Test
    void aRangeArrivingAfterCloseIsNeverIssued() throws Exception {
        SegmentSequence closing = sequence(10, 10, 5_000);
        Semaphore gate = new Semaphore(0);
        allocator.gate = gate;
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            Future<Long> waiting = caller.submit(closing::nextId);
            awaitCalls(1);
            closing.close();
            allocator.gate = null;
            gate.release();
            ExecutionException failure = assertThrows(ExecutionException.class, waiting::get);
            assertTrue(failure.getCause() instanceof RangeUnavailableException && failure.getCause().getMessage().contains("closed"),
                    String.valueOf(failure.getCause()));
            SegmentSequence later = sequence(10, 10, 5_000);
            long laterKey = later.nextId();
            assertThrows(RangeUnavailableException.class, closing::nextId, "the closed sequence issues nothing below the later one's " + laterKey);
        } finally {
            caller.shutdownNow();
        }
    }

    /**
     * Keys still in the current range when the sequence closes belong to nobody any more: a later sequence of the same
     * key may issue higher ones at once. Every way of taking keys refuses them, a single key, a batch inside the range
     * and a batch reaching past its end.
     */
    @Test
    void aClosedSequenceRefusesTheKeysLeftInItsCurrentRange() {
        SegmentSequence closing = sequence(100, 90, 5_000);
        assertEquals(1, closing.nextId());
        closing.close();
        assertThrows(RangeUnavailableException.class, closing::nextId, "a single key from the rest of the range");
        assertThrows(RangeUnavailableException.class, () -> closing.nextIds(5), "a batch inside the range");
        assertThrows(RangeUnavailableException.class, () -> closing.nextIds(500), "a batch reaching past the range's end");
        assertEquals(1, allocator.calls.get(), "a closed sequence asks for no further range");
    }

    @Test
    void aRangeArrivingAfterCloseIsNeverIssuedToABatch() throws Exception {
        SegmentSequence closing = sequence(10, 10, 5_000);
        Semaphore gate = new Semaphore(0);
        allocator.gate = gate;
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            Future<SegmentBatch> waiting = caller.submit(() -> closing.nextIds(15));
            awaitCalls(1);
            closing.close();
            allocator.gate = null;
            gate.release();
            ExecutionException failure = assertThrows(ExecutionException.class, waiting::get);
            assertTrue(failure.getCause() instanceof RangeUnavailableException && failure.getCause().getMessage().contains("closed"),
                    String.valueOf(failure.getCause()));
            assertThrows(RangeUnavailableException.class, () -> closing.nextIds(3), "a closed sequence installs no late range for a batch");
        } finally {
            caller.shutdownNow();
        }
    }

    @Test
    void theStatusKnowsTheRunway() throws Exception {
        SegmentSequence sequence = sequence(1_000, 10, 5_000);
        sequence.nextIds(200);
        awaitRemaining(sequence, 1_800);
        SegmentStatus status = sequence.status();
        assertEquals(1_800, status.remaining());
        assertEquals(1_000, status.step());
        assertEquals(2, status.rangesFetched());
        assertEquals("memory allocator", status.allocator());
    }

    /**
     * The fetch retries up to a second apart, so the first call after the allocator is back may still find it parked
     * and time out after the 300 ms fetch timeout; the sequence recovers at its next retry.
     */
    private static long nextIdOnceRecovered(final SegmentSequence sequence) {
        while (true) {
            try {
                return sequence.nextId();
            } catch (final RangeUnavailableException stillParked) {
                assertTrue(stillParked.getMessage().contains("memory allocator is down"), stillParked.getMessage());
            }
        }
    }

    private void awaitCalls(final int calls) throws InterruptedException {
        while (allocator.calls.get() < calls) {
            TimeUnit.MILLISECONDS.sleep(1);
        }
    }

    private static void awaitRemaining(final SegmentSequence sequence, final long remaining) throws InterruptedException {
        while (sequence.remaining() != remaining) {
            TimeUnit.MILLISECONDS.sleep(1);
        }
    }
}
