package org.snowkey.keygen.segment.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.segment.StartValues;

/** What makes two plans one scope: equal settings however they were written, and nothing less. */
class SegmentPlanKeyTest {

    private final ExecutorService fetches = Executors.newCachedThreadPool();

    private final SegmentRuntime runtime = new SegmentRuntime(WallClock.system(), fetches, "pid@test-host");

    private final SegmentPlanner planner = new SegmentPlanner(Map.of(TestAllocatorProvider.NAME, new TestAllocatorProvider()));

    @AfterEach
    void stop() {
        runtime.closeAll();
        fetches.shutdownNow();
    }

    private SegmentPlan plan(final String store, final String... more) {
        Properties props = new Properties();
        props.setProperty("segment-allocator", "test");
        props.setProperty("test-store", store);
        for (int i = 0; i + 1 < more.length; i += 2) {
            props.setProperty(more[i], more[i + 1]);
        }
        return planner.plan(planner.parse(props), Optional.empty());
    }

    /**
     * The same start values written in another order are the same plan. {@code Map.copyOf} iterates in an order that
     * depends on insertion where hashes collide (and on a per-JVM salt), so two keys whose order shows are looked for.
     */
    @Test
    void equalStartValuesInAnotherOrderShareOneScope() {
        String[] pair = keysWhoseOrderShows();
        String store = "order-" + System.nanoTime();
        SegmentPlan one = plan(store, "segment-start-values", pair[0] + "=100, " + pair[1] + "=200");
        SegmentPlan other = plan(store, "segment-start-values", pair[1] + "=200, " + pair[0] + "=100");
        assertEquals(one.starts(), other.starts(), "equal settings");
        assertEquals(one.scopeKey(), other.scopeKey());
        Object owner = new Object();
        assertSame(runtime.join(one, owner), runtime.join(other, owner), "one scope, so one sequence per key in this JVM");
    }

    @Test
    void differentSharedKeysAreDifferentScopes() {
        String store = "shared-" + System.nanoTime();
        assertNotEquals(plan(store).scopeKey(), plan(store, "segment-key", "all_orders").scopeKey());
        assertNotEquals(plan(store, "segment-key", "a").scopeKey(), plan(store, "segment-key", "b").scopeKey());
    }

    private static String[] keysWhoseOrderShows() {
        for (int i = 0; i < 10_000; i++) {
            for (int j = i + 1; j < i + 20; j++) {
                String a = "db.t" + i;
                String b = "db.t" + j;
                if (!starts(a, 100L, b, 200L).toString().equals(starts(b, 200L, a, 100L).toString())) {
                    return new String[] {a, b};
                }
            }
        }
        throw new AssertionError("no two keys found whose order shows in StartValues.toString()");
    }

    private static StartValues starts(final String first, final long firstStart, final String second, final long secondStart) {
        Map<String, Long> perKey = new LinkedHashMap<>();
        perKey.put(first, firstStart);
        perKey.put(second, secondStart);
        return new StartValues(1L, perKey);
    }
}
