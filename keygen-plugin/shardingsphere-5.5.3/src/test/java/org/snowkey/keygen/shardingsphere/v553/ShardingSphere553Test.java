package org.snowkey.keygen.shardingsphere.v553;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.apache.shardingsphere.infra.algorithm.keygen.spi.KeyGenerateAlgorithm;
import org.apache.shardingsphere.infra.config.mode.ModeConfiguration;
import org.apache.shardingsphere.infra.config.props.ConfigurationProperties;
import org.apache.shardingsphere.infra.instance.ComputeNodeInstance;
import org.apache.shardingsphere.infra.instance.ComputeNodeInstanceContext;
import org.apache.shardingsphere.infra.instance.ComputeNodeInstanceContextAware;
import org.apache.shardingsphere.infra.instance.metadata.jdbc.JDBCInstanceMetaData;
import org.apache.shardingsphere.infra.metadata.ShardingSphereMetaData;
import org.apache.shardingsphere.infra.metadata.database.resource.ResourceMetaData;
import org.apache.shardingsphere.infra.metadata.database.rule.RuleMetaData;
import org.apache.shardingsphere.infra.metadata.statistics.ShardingSphereStatistics;
import org.apache.shardingsphere.infra.spi.ShardingSphereServiceLoader;
import org.apache.shardingsphere.infra.spi.type.typed.TypedSPILoader;
import org.apache.shardingsphere.infra.util.eventbus.EventBusContext;
import org.apache.shardingsphere.mode.exclusive.ExclusiveOperatorContext;
import org.apache.shardingsphere.mode.exclusive.ExclusiveOperatorEngine;
import org.apache.shardingsphere.mode.manager.ContextManager;
import org.apache.shardingsphere.mode.manager.listener.ContextManagerLifecycleListener;
import org.apache.shardingsphere.mode.metadata.MetaDataContexts;
import org.apache.shardingsphere.mode.spi.repository.PersistRepository;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.keygen.shardingsphere.ContextLifecycleListener;
import org.snowkey.keygen.shardingsphere.KeyGeneratorFixtures;
import org.snowkey.keygen.shardingsphere.ShardingSphereLine;
import org.snowkey.keygen.testkit.H2LeaseTable;
import org.snowkey.keygen.testkit.LineContract;

/**
 * The 5.5.3 adapter on the parts of ShardingSphere 5.5.3 that Maven Central serves here (shardingsphere-jdbc 5.5.3 and
 * its own dependencies): 5.5.3's real SPI loaders find both types under the moved interface, 5.5.3's real compute node
 * context is handed over as its sharding rule hands it (which is not served: sharding-core), keys carry the worker id
 * leased from a JDBC lease table, and 5.5.3's real context manager drives snowkey-keygen-plugin's lifecycle listener,
 * which releases the lease when the context closes. No 5.5.3 application runs end to end here (README,
 * "ShardingSphere versions").
 */
class ShardingSphere553Test {

    private final H2LeaseTable leases = new H2LeaseTable();

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void releaseEverything() throws Exception {
        for (AutoCloseable each : opened) {
            each.close();
        }
        SnowflakeRuntime.get().closeAll();
        SegmentRuntime.get().closeAll();
        KeyGeneratorFixtures.forgetSeenClusterRegistries();
    }

    @Test
    void theClassPathIsShardingSphere553WithoutThe55SpiAndWithThisAdapter() {
        assertEquals("5.5.3", ShardingSphereLine.runningVersion(ContextManager.class).orElseThrow());
        assertThrows(ClassNotFoundException.class, () -> Class.forName("org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm"),
                "5.5.2's SPI must not be here: this module stands for a 5.5.3 application");
        assertEquals(List.of(new ShardingSphereLine.Adapter("snowkey-keygen-shardingsphere-5.5.3", "5.5.3")), ShardingSphereLine.adapters(getClass().getClassLoader()));
        assertEquals(Optional.empty(), ShardingSphereLine.warnOnce(ContextManager.class), "5.5.3 with its adapter: nothing to warn about");
    }

    @Test
    void shardingSpheresOwnLoadersFindBothTypesUnderTheMovedInterface() throws SQLException {
        Collection<KeyGenerateAlgorithm> all = ShardingSphereServiceLoader.getServiceInstances(KeyGenerateAlgorithm.class);
        List<String> snowKeys = all.stream().filter(each -> each.getClass().getName().startsWith("org.snowkey.")).map(each -> each.getClass().getName()).sorted().toList();
        assertEquals(List.of(ImprovedSnowflakeKeyGenerateAlgorithm.class.getName(), SnowKeySegmentKeyGenerateAlgorithm.class.getName()), snowKeys);

        assertInstanceOf(ImprovedSnowflakeKeyGenerateAlgorithm.class, TypedSPILoader.getService(KeyGenerateAlgorithm.class, "IMPROVED_SNOWFLAKE", props(leases.props("found"))));
        assertInstanceOf(SnowKeySegmentKeyGenerateAlgorithm.class, TypedSPILoader.getService(KeyGenerateAlgorithm.class, "SNOWKEY_SEGMENT", props(segmentProps())));
        assertEquals(List.of(), held("found"), "init() leases nothing: ShardingSphere's checker creates throw-away instances");
    }

    @Test
    void anInvalidPropFailsInitThroughShardingSpheresLoaderNamingIt() {
        Properties props = props(leases.props("bad"));
        props.setProperty("worker-id-bits", "99");
        Throwable failure = assertThrows(Throwable.class, () -> TypedSPILoader.getService(KeyGenerateAlgorithm.class, "IMPROVED_SNOWFLAKE", props));
        StringBuilder messages = new StringBuilder();
        for (Throwable each = failure; each != null; each = each.getCause()) {
            messages.append(each.getMessage()).append(" / ");
        }
        assertTrue(messages.toString().contains("worker-id-bits") && messages.toString().contains("99"), messages.toString());
    }

    @Test
    void keysCarryTheWorkerIdLeasedWhenShardingSphereHandsOverItsComputeNodeContext() throws Exception {
        KeyGenerateAlgorithm algorithm = TypedSPILoader.getService(KeyGenerateAlgorithm.class, "IMPROVED_SNOWFLAKE", props(leases.props("orders")));
        assertEquals(List.of(), held("orders"));
        long before = System.currentTimeMillis();
        handOver(algorithm, computeNodeContext());
        List<Integer> held = leases.heldWorkerIds("orders");
        assertEquals(1, held.size(), "the lease is taken when 5.5.3's context arrives: " + held);

        AlgorithmSQLContext insert = new AlgorithmSQLContext("sharding_db", "public", "t_order", "order_id");
        List<Long> keys = new ArrayList<>();
        algorithm.generateKeys(insert, 1).forEach(each -> keys.add((Long) each));
        algorithm.generateKeys(insert, 4).forEach(each -> keys.add((Long) each));
        LineContract.assertKeysOfWorkerSince(keys, 5, held.get(0), before);
        assertTrue(keys.get(0) < keys.get(1) && keys.get(1) < keys.get(4), "increasing within the table: " + keys);
    }

    @Test
    void segmentKeysAreDenseFromTheStartValueThroughThe553Interface() {
        KeyGenerateAlgorithm algorithm = TypedSPILoader.getService(KeyGenerateAlgorithm.class, "SNOWKEY_SEGMENT", props(segmentProps("segment-start-value", "1000")));
        handOver(algorithm, computeNodeContext());
        AlgorithmSQLContext insert = new AlgorithmSQLContext("sharding_db", "public", "t_order", "order_id");
        List<Long> keys = new ArrayList<>();
        algorithm.generateKeys(insert, 1).forEach(each -> keys.add((Long) each));
        algorithm.generateKeys(insert, 4).forEach(each -> keys.add((Long) each));
        for (int i = 0; i < 20; i++) {
            keys.add((Long) algorithm.generateKeys(insert, 1).iterator().next());
        }
        List<Long> expected = new ArrayList<>();
        for (long each = 1000; each < 1025; each++) {
            expected.add(each);
        }
        assertEquals(expected, keys, "dense keys from the start value across two ranges of 16, in order, none skipped");
    }

    @Test
    void thePluginsListenerIsTheOnlySnowKeyListenerAndReleasesTheLeaseWhen553ClosesItsContext() throws Exception {
        List<ContextManagerLifecycleListener> snowKeys = ShardingSphereServiceLoader.getServiceInstances(ContextManagerLifecycleListener.class).stream()
                .filter(each -> each.getClass().getName().startsWith("org.snowkey.")).toList();
        assertEquals(1, snowKeys.size(), "one SnowKey listener: " + snowKeys);
        assertInstanceOf(ContextLifecycleListener.class, snowKeys.get(0));

        ComputeNodeInstanceContext context = computeNodeContext();
        KeyGenerateAlgorithm algorithm = TypedSPILoader.getService(KeyGenerateAlgorithm.class, "IMPROVED_SNOWFLAKE", props(leases.props("closing")));
        handOver(algorithm, context);
        algorithm.generateKeys(new AlgorithmSQLContext("sharding_db", "public", "t_order", "order_id"), 1);
        assertEquals(1, leases.heldWorkerIds("closing").size());
        // 5.5.3's own ContextManager calls its listeners' onInitialized when built and onDestroyed when closed.
        ContextManager contextManager = new ContextManager(emptyMetaData(), context, new ExclusiveOperatorEngine(new NoContention()), new InMemoryRepository());
        contextManager.close();
        assertEquals(List.of(), leases.heldWorkerIds("closing"), "released by snowkey-keygen-plugin's listener when 5.5.3 closed the context");
    }

    /** The worker ids held in the pool; none before the lease table was ever created. */
    private List<Integer> held(final String pool) throws SQLException {
        try {
            return leases.heldWorkerIds(pool);
        } catch (final SQLException ex) {
            if (ex.getSQLState() != null && ex.getSQLState().startsWith("42S0")) {
                return List.of();
            }
            throw ex;
        }
    }

    /** What 5.5.3's sharding rule does with each key generator while it is built (that rule's jar is not served here). */
    private static void handOver(final KeyGenerateAlgorithm algorithm, final ComputeNodeInstanceContext context) {
        assertInstanceOf(ComputeNodeInstanceContextAware.class, algorithm).setComputeNodeInstanceContext(context);
    }

    /** A Standalone ShardingSphere-JDBC instance's context, built as 5.5.3 builds it. */
    private static ComputeNodeInstanceContext computeNodeContext() {
        ComputeNodeInstance instance = new ComputeNodeInstance(new JDBCInstanceMetaData(UUID.randomUUID().toString(), "sharding_db"));
        return new ComputeNodeInstanceContext(instance, new ModeConfiguration("Standalone", null), new EventBusContext());
    }

    private static MetaDataContexts emptyMetaData() {
        return new MetaDataContexts(new ShardingSphereMetaData(List.of(), new ResourceMetaData(Map.of()), new RuleMetaData(List.of()), new ConfigurationProperties(new Properties())),
                new ShardingSphereStatistics());
    }

    private static Properties props(final Map<String, String> values) {
        Properties result = new Properties();
        result.putAll(values);
        return result;
    }

    private static Map<String, String> segmentProps(final String... more) {
        Map<String, String> props = new java.util.LinkedHashMap<>();
        props.put("segment-allocator", "jdbc");
        props.put("jdbc-url", "jdbc:h2:mem:ranges_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12) + ";DB_CLOSE_DELAY=-1");
        props.put("jdbc-username", "sa");
        props.put("segment-step-min", "16");
        props.put("segment-step-max", "16");
        for (int i = 0; i + 1 < more.length; i += 2) {
            props.put(more[i], more[i + 1]);
        }
        return props;
    }

    /** A single JVM: every exclusive operation is granted. */
    private static final class NoContention implements ExclusiveOperatorContext {

        @Override
        public boolean start(final String operationKey, final long timeoutMillis) {
            return true;
        }

        @Override
        public void stop(final String operationKey) {
        }
    }

    /**
     * 5.5.3's Standalone repository (shardingsphere-standalone-mode-repository-jdbc) is not served here: an in-memory one,
     * enough for a context manager of no databases. Its mode services come from {@link NoPersistenceModeServices}.
     */
    private static final class InMemoryRepository implements PersistRepository {

        private final Map<String, String> values = new ConcurrentHashMap<>();

        @Override
        public String query(final String key) {
            return values.get(key);
        }

        @Override
        public List<String> getChildrenKeys(final String key) {
            String prefix = key.endsWith("/") ? key : key + "/";
            return values.keySet().stream().filter(each -> each.startsWith(prefix)).map(each -> each.substring(prefix.length()).split("/")[0]).distinct().sorted().toList();
        }

        @Override
        public boolean isExisted(final String key) {
            return values.containsKey(key);
        }

        @Override
        public void persist(final String key, final String value) {
            values.put(key, value);
        }

        @Override
        public void update(final String key, final String value) {
            values.put(key, value);
        }

        @Override
        public void delete(final String key) {
            values.keySet().removeIf(each -> each.equals(key) || each.startsWith(key + "/"));
        }

        @Override
        public void close() {
        }

        @Override
        public Object getType() {
            return "SnowKeyTestMemory";
        }
    }
}
