package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

    /**
     * Review of the store-deciding props: a key generator that restates a bean prop in another spelling
     * ({@code ZooKeeper}), with white space, makes a default explicit ({@code lease-pool: default}), or sets a lease prop
     * that decides no store (duration, acquire timeout, instance id) has other props than the bean, so the props
     * compared unequal and the check was skipped, although without the mode it would lease exactly where the bean does
     * and with the mode it leases elsewhere: two pools for one table. The store it would reach without the mode is what
     * tells whether it inherits the bean's store.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "lease-registry|ZooKeeper",
            "zookeeper-server-lists|' 127.0.0.1:2181 '",
            "lease-pool|default",
            "lease-duration-milliseconds|60000",
            "lease-acquire-timeout-milliseconds|1000",
            "instance-id|app-1"})
    void aKeyGeneratorReachingTheBeansStoreWithoutTheModeFailsWhateverItsPropsSay(final String prop, final String value) {
        Map<Object, Object> bean = Map.of("lease-registry", "zookeeper", "zookeeper-server-lists", "127.0.0.1:2181");
        String beanStore = BEAN_STORE + "default-" + prop;
        AtomicBoolean inUse = new AtomicBoolean(true);
        PlansWithoutMode.workerIdsPlanned(bean, beanStore, "the SnowKeyIdGenerator bean", inUse::get);
        try {
            Map<Object, Object> keyGenerator = new HashMap<>(bean);
            keyGenerator.put(prop, value);
            IllegalStateException failure = assertThrows(IllegalStateException.class,
                    () -> PlansWithoutMode.checkWorkerIds(keyGenerator, MODE_STORE + "default-" + prop, beanStore, ImprovedSnowflakeKeyGenerateAlgorithm.TYPE));
            assertTrue(failure.getMessage().contains(beanStore) && failure.getMessage().contains(MODE_STORE), failure.getMessage());
            assertDoesNotThrow(() -> PlansWithoutMode.checkWorkerIds(keyGenerator, MODE_STORE + "own-" + prop, BEAN_STORE + "own-" + prop,
                    ImprovedSnowflakeKeyGenerateAlgorithm.TYPE), "a store of its own without the mode is not the bean's: nothing to compare");
            inUse.set(false);
            assertDoesNotThrow(() -> PlansWithoutMode.checkWorkerIds(keyGenerator, MODE_STORE + "default-" + prop, beanStore,
                    ImprovedSnowflakeKeyGenerateAlgorithm.TYPE), "a closed bean binds nobody");
        } finally {
            inUse.set(false);
        }
    }

    /** As above, for segment ranges: {@code segment-allocator: ZOOKEEPER} beside a bean's {@code zookeeper}. */
    @Test
    void aSegmentKeyGeneratorReachingTheBeansStoreWithoutTheModeFailsWhateverItsPropsSay() {
        String servers = "127.0.0.1:" + (30000 + System.nanoTime() % 10000);
        Map<Object, Object> bean = Map.of("segment-allocator", "zookeeper", "zookeeper-server-lists", servers);
        AtomicBoolean inUse = new AtomicBoolean(true);
        PlansWithoutMode.segmentsPlanned(bean, "zookeeper|" + servers + "|snowkey", "the SnowKeySegments bean", inUse::get);
        try {
            Map<Object, Object> keyGenerator = new HashMap<>(bean);
            keyGenerator.put("segment-allocator", "ZOOKEEPER");
            assertThrows(IllegalStateException.class, () -> PlansWithoutMode.checkSegments(keyGenerator, "zookeeper|" + servers + "|governance_ds",
                    "zookeeper|" + servers + "|snowkey", SnowKeySegmentKeyGenerateAlgorithm.TYPE));
        } finally {
            inUse.set(false);
        }
    }
}
