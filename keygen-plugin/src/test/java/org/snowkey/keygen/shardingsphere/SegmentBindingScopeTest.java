package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.mode.ClusterRegistry;
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

    /**
     * An instance ShardingSphere never handed its context takes the one Cluster registry seen, and fails when there
     * are several, since it cannot tell which is its own. With {@code segment-allocator} set it needs none of them.
     */
    @Test
    void anInstanceNeverBoundWithItsOwnAllocatorIgnoresTheClusterRegistriesSeen() {
        ClusterRegistriesSeen.add(Optional.of(new ClusterRegistry("ZooKeeper", "one", "127.0.0.1:2181", new Properties())));
        ClusterRegistriesSeen.add(Optional.of(new ClusterRegistry("ZooKeeper", "two", "127.0.0.1:2181", new Properties())));
        try {
            Properties props = new Properties();
            props.setProperty("segment-allocator", "test");
            props.setProperty("test-store", "unbound-" + System.nanoTime());
            SegmentBinding binding = new SegmentBinding();
            binding.init(props);
            assertTrue(binding.sequence("db", "t_order").nextId() >= 1);
            Properties fromMode = new Properties();
            fromMode.setProperty("segment-allocator", "test");
            SegmentBinding ambiguous = new SegmentBinding();
            ambiguous.init(fromMode);
            IllegalStateException ex = assertThrows(IllegalStateException.class, () -> ambiguous.sequence("db", "t_order"),
                    "a store taken from the mode differs by registry: no guess");
            assertTrue(ex.getMessage().contains("2 Cluster mode registries"), ex.getMessage());
        } finally {
            ClusterRegistriesSeen.forget();
        }
    }

    @Test
    void aScopeClosedUnderALiveKeyGeneratorIsJoinedAgainWithItsOwner() {
        Object context = new Object();
        SegmentBinding binding = bound(context, "rejoin-" + System.nanoTime());
        long lastOfFirst = binding.sequence("db", "t_order").nextId();
        org.snowkey.keygen.segment.runtime.SegmentScope first = binding.scope();

        // A close meant for another data source released this one's context: its scope closed under it.
        SegmentRuntime.get().release(context);
        assertTrue(first.isClosed());
        long next = binding.sequence("db", "t_order").nextId();
        assertTrue(next > lastOfFirst, "the key generator joined the scope again instead of failing every key on the closed one");

        org.snowkey.keygen.segment.runtime.SegmentScope rejoined = binding.scope();
        assertNotSame(first, rejoined);
        SegmentRuntime.get().release(context);
        assertTrue(rejoined.isClosed(), "the scope joined again is owned by the same context, and closes with it");
    }

    /**
     * A bind that failed (here: a Spring bean planned these settings on another store before the Cluster mode was known)
     * is kept, so that where ShardingSphere ignores the failure (5.5.0) every key fails naming it, instead of the first
     * key joining the allocator without the context and counting the table on a second store.
     */
    @Test
    void aBindThatFailedMakesKeysFailNamingItInsteadOfJoiningWithoutTheContext() {
        String store = "failed-bind-" + System.nanoTime();
        AtomicBoolean beanInUse = new AtomicBoolean(true);
        PlansWithoutMode.segmentsPlanned(Map.of("segment-allocator", "test", "test-store", store), "elsewhere", "the SnowKeySegments bean", beanInUse::get);
        try {
            Properties props = new Properties();
            props.setProperty("segment-allocator", "test");
            props.setProperty("test-store", store);
            SegmentBinding binding = new SegmentBinding();
            binding.init(props);
            RuntimeException atStartUp = assertThrows(IllegalStateException.class,
                    () -> binding.bind(Optional.of(new ClusterRegistry("ZooKeeper", "governance", "127.0.0.1:1", new Properties())), new Object()));
            IllegalStateException onInsert = assertThrows(IllegalStateException.class, () -> binding.sequence("db", "t_order"));
            assertSame(atStartUp, onInsert.getCause());
            assertTrue(onInsert.getMessage().contains("this SNOWKEY_SEGMENT key generator could not bind when ShardingSphere started"), onInsert.getMessage());
        } finally {
            beanInUse.set(false);
            ClusterRegistriesSeen.forget();
        }
    }

    /**
     * A rule changed at run time: ShardingSphere builds a new algorithm with the new props and binds it with the same
     * context, while the old one (and its scope) lives on. A new step keeps the store: the new scope takes ranges from
     * the same counter, above the old one's.
     */
    @Test
    void aRuleChangedWhileKeysAreIssuedNeverRepeatsAKeyOfTheOldScope() {
        Object context = new Object();
        String store = "altered-" + System.nanoTime();
        SegmentBinding before = bound(context, store);
        Set<Long> keys = new HashSet<>();
        for (int i = 0; i < 7; i++) {
            assertTrue(keys.add(before.sequence("db", "t_order").nextId()));
        }
        SegmentBinding newStep = bound(context, store, "segment-step-min", "20", "segment-step-max", "20");
        assertNotSame(before.scope(), newStep.scope());
        for (int i = 0; i < 30; i++) {
            assertTrue(keys.add(newStep.sequence("db", "t_order").nextId()), "a key of the old scope came again: " + keys);
            assertTrue(keys.add(before.sequence("db", "t_order").nextId()), "a key of the new scope came again: " + keys);
        }
    }
}
