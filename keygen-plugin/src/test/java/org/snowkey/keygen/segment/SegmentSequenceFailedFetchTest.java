package org.snowkey.keygen.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.clock.WallClock;

/**
 * A fetch that ends without a range (the allocator throws an Error or returns null, the executor refuses the task)
 * must not leave a pending fetch that never completes: every later caller would then wait out the fetch timeout
 * forever, with no new fetch ever started. The fetch timeout here only bounds how long a broken build waits.
 */
@Timeout(60)
class SegmentSequenceFailedFetchTest {

    private static final long FETCH_TIMEOUT_MILLIS = 2_000;

    private final ExecutorService fetches = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "segment-fetch");
        thread.setDaemon(true);
        return thread;
    });

    private final MemoryRangeAllocator memory = new MemoryRangeAllocator();

    @AfterEach
    void stopFetches() {
        fetches.shutdownNow();
    }

    private SegmentSequence sequence(final RangeAllocator allocator, final Executor executor) {
        return new SegmentSequence("db.t_order", allocator, new SegmentSettings(10, 10, 10_000, 50, FETCH_TIMEOUT_MILLIS), WallClock.system(), executor);
    }

    /** Fails its first call with {@code failure}, then asks the memory allocator. */
    private RangeAllocator failingOnce(final Runnable failure) {
        AtomicBoolean failed = new AtomicBoolean();
        return new RangeAllocator() {

            @Override
            public NumberRange allocate(final String key, final long size) {
                if (failed.compareAndSet(false, true)) {
                    failure.run();
                }
                return memory.allocate(key, size);
            }

            @Override
            public String describe() {
                return memory.describe();
            }
        };
    }

    @Test
    void anAllocatorThatThrowsAnErrorFailsThatCallerAndTheNextCallerFetchesAgain() {
        // A JDBC driver missing a class throws NoClassDefFoundError: not a RuntimeException.
        SegmentSequence sequence = sequence(failingOnce(() -> {
            throw new NoClassDefFoundError("org/example/MissingDriverClass");
        }), fetches);
        RangeUnavailableException first = assertThrows(RangeUnavailableException.class, sequence::nextId);
        assertEquals(NoClassDefFoundError.class, first.getCause().getClass());
        assertEquals(1, sequence.nextId());
        assertEquals(1, sequence.issued());
    }

    @Test
    void anAllocatorThatReturnsNullIsRetriedLikeAFailedCall() {
        AtomicBoolean nullGiven = new AtomicBoolean();
        RangeAllocator nullOnce = new RangeAllocator() {

            @Override
            public NumberRange allocate(final String key, final long size) {
                return nullGiven.compareAndSet(false, true) ? null : memory.allocate(key, size);
            }

            @Override
            public String describe() {
                return memory.describe();
            }
        };
        SegmentSequence sequence = sequence(nullOnce, fetches);
        // Retried like a failed call: the caller gets its key from the next answer.
        assertEquals(1, sequence.nextId());
    }

    @Test
    void anExecutorThatRefusesTheFetchFailsThatCallerAndTheNextCallerFetchesAgain() {
        AtomicBoolean refused = new AtomicBoolean();
        Executor refusingOnce = task -> {
            if (refused.compareAndSet(false, true)) {
                throw new RejectedExecutionException("fetch pool is full");
            }
            fetches.execute(task);
        };
        SegmentSequence sequence = sequence(memory, refusingOnce);
        assertThrows(RangeUnavailableException.class, sequence::nextId);
        assertEquals(1, sequence.nextId());
    }

    @Test
    void aCallerThatTimedOutLeavesTheFetchInFlightForTheNextCallerAndNoKeyIsIssuedTwice() {
        Semaphore gate = new Semaphore(0);
        memory.gate = gate;
        SegmentSequence sequence = new SegmentSequence("db.t_order", memory, new SegmentSettings(10, 10, 10_000, 50, 1), WallClock.system(), fetches);
        assertThrows(RangeUnavailableException.class, sequence::nextId);
        memory.gate = null;
        gate.release(Integer.MAX_VALUE / 2);
        SegmentSequence patient = sequence;
        // The same fetch is still pending: the next caller waits on it rather than starting a second one.
        long key = awaitKey(patient);
        assertEquals(1, key);
        assertEquals(1, memory.calls.get());
        assertEquals(1, patient.issued());
    }

    /** Retries the 1 ms fetch timeout until the released fetch lands; bounded by the test's @Timeout. */
    private static long awaitKey(final SegmentSequence sequence) {
        while (true) {
            try {
                return sequence.nextId();
            } catch (final RangeUnavailableException timedOut) {
                Thread.onSpinWait();
            }
        }
    }
}
