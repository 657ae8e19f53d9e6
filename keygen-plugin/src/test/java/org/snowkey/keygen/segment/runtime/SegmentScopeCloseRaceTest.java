package org.snowkey.keygen.segment.runtime;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.keygen.segment.SegmentSequence;

/**
 * A scope closing while a thread makes the first sequence of a new key (a ShardingSphere context closed during an
 * INSERT into a table not seen before). Every sequence the scope handed out must be closed with it: one that is not
 * keeps a fetch thread retrying for ever against the closed pool or client. Many short rounds, since the window is a
 * few instructions wide; on the unfixed code some round lands in it within seconds on two cores.
 */
class SegmentScopeCloseRaceTest {

    private static final int ROUNDS = 3_000;

    private final ExecutorService fetches = Executors.newCachedThreadPool();

    private final ExecutorService creator = Executors.newSingleThreadExecutor();

    private final SegmentRuntime runtime = new SegmentRuntime(WallClock.system(), fetches, "pid@test-host");

    private final SegmentPlanner planner = new SegmentPlanner(Map.of(TestAllocatorProvider.NAME, new TestAllocatorProvider()));

    @AfterEach
    void stop() {
        runtime.closeAll();
        creator.shutdownNow();
        fetches.shutdownNow();
    }

    private SegmentPlan plan(final String store) {
        Properties props = new Properties();
        props.setProperty("segment-allocator", "test");
        props.setProperty("test-store", store);
        props.setProperty("segment-step-min", "1");
        props.setProperty("segment-step-max", "1");
        props.setProperty("segment-fetch-timeout-milliseconds", "2000");
        return planner.plan(planner.parse(props), Optional.empty());
    }

    @Test
    void everySequenceHandedOutIsClosedWithItsScope() throws Exception {
        String store = "close-race-" + System.nanoTime();
        for (int round = 0; round < ROUNDS; round++) {
            Object owner = new Object();
            SegmentScope scope = runtime.join(plan(store), owner);
            AtomicInteger made = new AtomicInteger();
            Future<List<SegmentSequence>> creating = creator.submit(() -> {
                List<SegmentSequence> got = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    try {
                        got.add(scope.sequence("k" + i));
                    } catch (final RangeUnavailableException closed) {
                        break;
                    }
                    made.incrementAndGet();
                }
                return got;
            });
            while (made.get() < 2 && !creating.isDone()) {
                Thread.onSpinWait();
            }
            runtime.release(owner);
            for (SegmentSequence each : creating.get()) {
                boolean refused;
                try {
                    each.nextId();
                    refused = false;
                } catch (final RangeUnavailableException expected) {
                    refused = true;
                }
                assertTrue(refused, "round " + round + ": sequence '" + each.key() + "' was handed out as its scope closed and still fetches ranges");
            }
        }
    }
}
