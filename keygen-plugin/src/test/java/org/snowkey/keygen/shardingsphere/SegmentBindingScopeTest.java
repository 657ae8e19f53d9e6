package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.HashSet;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;

/**
 * Key generators of one JVM that share an allocator (the test allocator, found through ServiceLoader) but differ in
 * {@code segment-key}: each must issue as its own props say, whichever of them joined the allocator first.
 */
class SegmentBindingScopeTest {

    @AfterEach
    void closeScopes() {
        SegmentRuntime.get().closeAll();
    }

    private static SegmentBinding bound(final Object context, final String store, final String... more) {
        Properties props = new Properties();
        props.setProperty("segment-allocator", "test");
        props.setProperty("test-store", store);
        props.setProperty("segment-step-min", "5");
        props.setProperty("segment-step-max", "5");
        for (int i = 0; i + 1 < more.length; i += 2) {
            props.setProperty(more[i], more[i + 1]);
        }
        SegmentBinding binding = new SegmentBinding();
        binding.init(props);
        binding.bind(Optional.empty(), context);
        return binding;
    }

    @Test
    void aSharedKeyHoldsAfterAKeyGeneratorWithoutOneJoinedTheAllocator() {
        String store = "per-table-first-" + System.nanoTime();
        Object context = new Object();
        SegmentBinding perTable = bound(context, store);
        SegmentBinding shared = bound(context, store, "segment-key", "all_orders");
        assertSharedAndPerTable(shared, perTable);
    }

    @Test
    void aKeyPerTableHoldsAfterAKeyGeneratorWithASharedKeyJoinedTheAllocator() {
        String store = "shared-first-" + System.nanoTime();
        Object context = new Object();
        SegmentBinding shared = bound(context, store, "segment-key", "all_orders");
        SegmentBinding perTable = bound(context, store);
        assertSharedAndPerTable(shared, perTable);
    }

    private static void assertSharedAndPerTable(final SegmentBinding shared, final SegmentBinding perTable) {
        assertSame(shared.sequence("db", "t_order"), shared.sequence("db", "t_item"), "segment-key: one sequence for every table");
        assertNotSame(perTable.sequence("db", "t_order"), perTable.sequence("db", "t_item"), "no segment-key: a sequence per table");
        Set<Long> keys = new HashSet<>();
        for (int i = 0; i < 12; i++) {
            keys.add(shared.sequence("db", "t_order").nextId());
            keys.add(shared.sequence("db", "t_item").nextId());
        }
        assertEquals(24, keys.size(), "the tables of a shared key never share a key: " + keys);
    }
}
