package org.snowkey.keygen.segment.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.SegmentSequence;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.keygen.segment.StartValues;

/** New sequences are told to the runtime's listeners once each, whoever races to create them; a failing listener fails no caller. */
class SegmentSequenceListenerTest {

    private final ExecutorService fetches = Executors.newCachedThreadPool();

    private final SegmentRuntime runtime = new SegmentRuntime(WallClock.system(), fetches, "test");

    private final Object owner = new Object();

    @AfterEach
    void close() {
        runtime.closeAll();
        fetches.shutdownNow();
    }

    @Test
    void eachNewSequenceIsToldOnceEvenWhenThreadsRaceToCreateIt() throws Exception {
        Map<SegmentSequence, Integer> told = new ConcurrentHashMap<>();
        runtime.addSequenceListener((scope, sequence) -> told.merge(sequence, 1, Integer::sum));
        SegmentScope scope = runtime.join(plan(), owner);
        int threads = 8;
        ExecutorService callers = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 50; round++) {
                String key = "k" + round;
                CountDownLatch start = new CountDownLatch(1);
                List<Future<SegmentSequence>> got = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    got.add(callers.submit(() -> {
                        start.await();
                        return scope.sequence(key);
                    }));
                }
                start.countDown();
                List<SegmentSequence> sequences = new ArrayList<>();
                for (Future<SegmentSequence> each : got) {
                    sequences.add(each.get());
                }
                // Every caller got the one sequence, and once all have returned its creator has told the listener.
                for (SegmentSequence each : sequences) {
                    assertSame(sequences.get(0), each);
                }
                assertEquals(1, told.get(sequences.get(0)));
            }
        } finally {
            callers.shutdownNow();
        }
        assertEquals(50, told.size());
        told.values().forEach(times -> assertEquals(1, times));
        // Known sequences are not told again.
        scope.sequence("k0").nextId();
        assertEquals(50, told.size());
        assertEquals(told.keySet(), new java.util.HashSet<>(scope.sequences()));
    }

    @Test
    void aFailingListenerFailsNoCallerAndDoesNotSilenceTheOthers() {
        List<String> told = new ArrayList<>();
        runtime.addSequenceListener((scope, sequence) -> {
            throw new IllegalStateException("broken metrics");
        });
        runtime.addSequenceListener((scope, sequence) -> told.add(sequence.key()));
        SegmentScope scope = runtime.join(plan(), owner);
        assertEquals(1, scope.sequence("orders").nextId());
        assertEquals(List.of("orders"), told);
    }

    @Test
    void aRemovedListenerIsNotTold() {
        List<String> told = new ArrayList<>();
        SegmentSequenceListener listener = (scope, sequence) -> told.add(sequence.key());
        runtime.addSequenceListener(listener);
        SegmentScope scope = runtime.join(plan(), owner);
        scope.sequence("a");
        runtime.removeSequenceListener(listener);
        scope.sequence("b");
        assertEquals(List.of("a"), told);
        assertFalse(scope.isClosed());
        runtime.release(owner);
        assertTrue(scope.isClosed());
    }

    private static SegmentPlan plan() {
        return new SegmentPlan(new MemoryAllocator(), SegmentSettings.defaults(), new StartValues(1, Map.of()), SegmentKey.PER_TABLE);
    }

    /** A counter per key in memory: enough for scopes and sequences, which are what these tests are about. */
    private static final class MemoryAllocator implements PreparedAllocator, OpenAllocator {

        private final Map<String, AtomicLong> next = new ConcurrentHashMap<>();

        @Override
        public String scopeKey() {
            return "memory";
        }

        @Override
        public OpenAllocator open(final String owner, final StartValues starts) {
            return this;
        }

        @Override
        public NumberRange allocate(final String key, final long size) {
            long first = next.computeIfAbsent(key, each -> new AtomicLong(1)).getAndAdd(size);
            return new NumberRange(first, first + size - 1);
        }

        @Override
        public String describe() {
            return "memory";
        }

        @Override
        public void close() {
        }
    }
}
