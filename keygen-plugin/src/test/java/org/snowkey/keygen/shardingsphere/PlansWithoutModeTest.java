package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

/**
 * A Spring bean that planned before ShardingSphere's Cluster mode was known, and a YAML key generator that inherits its
 * store settings: the key generator must take the bean's store or fail naming both. Props of the key generator's own
 * that do not decide the store (its sequence scope, time cache, sizing of ranges) leave it inheriting the bean's store;
 * only its own store props (a pool, a registry, an allocator) make it a store of its own.
 */
class PlansWithoutModeTest {

    private static final String BEAN_STORE = "zookeeper|127.0.0.1:2181|snowkey|";

    private static final String MODE_STORE = "zookeeper|127.0.0.1:2181|governance_ds|";

    /**
     * The bean leases from the ZooKeeper namespace it planned without the mode, the key generator (same servers, same
     * pool, plus a {@code sequence-scope} of its own) from the mode's namespace: two pools, so another instance's bean
     * and this key generator could hold the same worker id and issue one table's ids twice. The check compared all
     * props, so one prop of its own switched it off.
     */
    @Test
    void aKeyGeneratorWithGeneratorPropsOfItsOwnStillInheritsTheBeansWorkerIdStore() {
        String pool = "plans-" + System.nanoTime();
        Map<Object, Object> bean = Map.of("lease-registry", "zookeeper", "zookeeper-server-lists", "127.0.0.1:2181", "lease-pool", pool);
        AtomicBoolean inUse = new AtomicBoolean(true);
        PlansWithoutMode.workerIdsPlanned(bean, BEAN_STORE + pool, "the SnowKeyIdGenerator bean", inUse::get);
        try {
            Map<Object, Object> keyGenerator = new HashMap<>(bean);
            keyGenerator.put("sequence-scope", "global");
            keyGenerator.put("max-time-cache-milliseconds", "5000");
            IllegalStateException failure = assertThrows(IllegalStateException.class,
                    () -> PlansWithoutMode.checkWorkerIds(keyGenerator, MODE_STORE + pool, ImprovedSnowflakeKeyGenerateAlgorithm.TYPE));
            assertTrue(failure.getMessage().contains(BEAN_STORE + pool) && failure.getMessage().contains(MODE_STORE + pool), failure.getMessage());

            keyGenerator.put("lease-pool", pool + "-own");
            assertDoesNotThrow(() -> PlansWithoutMode.checkWorkerIds(keyGenerator, MODE_STORE + pool + "-own", ImprovedSnowflakeKeyGenerateAlgorithm.TYPE),
                    "a pool of its own is not the bean's store: nothing to compare");
        } finally {
            inUse.set(false);
        }
    }

    /** As above, for segment ranges: a key generator's own range sizing or start value does not change the store it inherits. */
    @Test
    void aKeyGeneratorWithSizingPropsOfItsOwnStillInheritsTheBeansSegmentStore() {
        String servers = "127.0.0.1:" + (20000 + System.nanoTime() % 10000);
        Map<Object, Object> bean = Map.of("segment-allocator", "zookeeper", "zookeeper-server-lists", servers);
        AtomicBoolean inUse = new AtomicBoolean(true);
        PlansWithoutMode.segmentsPlanned(bean, "zookeeper|" + servers + "|snowkey", "the SnowKeySegments bean", inUse::get);
        try {
            Map<Object, Object> keyGenerator = new HashMap<>(bean);
            keyGenerator.put("segment-step-min", "50");
            keyGenerator.put("segment-start-value", "1000");
            assertThrows(IllegalStateException.class,
                    () -> PlansWithoutMode.checkSegments(keyGenerator, "zookeeper|" + servers + "|governance_ds", SnowKeySegmentKeyGenerateAlgorithm.TYPE));
        } finally {
            inUse.set(false);
        }
    }
}
