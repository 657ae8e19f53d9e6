package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import javax.sql.DataSource;

import org.apache.shardingsphere.driver.jdbc.core.datasource.ShardingSphereDataSource;
import org.apache.shardingsphere.infra.algorithm.core.config.AlgorithmConfiguration;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;
import org.apache.shardingsphere.infra.spi.type.typed.TypedSPILoader;
import org.apache.shardingsphere.mode.manager.ContextManager;
import org.apache.shardingsphere.sharding.api.config.ShardingRuleConfiguration;
import org.apache.shardingsphere.sharding.api.config.rule.ShardingTableRuleConfiguration;
import org.apache.shardingsphere.sharding.api.config.strategy.keygen.KeyGenerateStrategyConfiguration;
import org.apache.shardingsphere.sharding.rule.ShardingRule;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.runtime.SnowKeyRuntime;
import org.snowkey.keygen.testing.ShardingSphereFixture;

/**
 * A key generator changed while ShardingSphere runs, the way DistSQL changes it.
 *
 * <p>{@code ALTER SHARDING TABLE RULE t_order_item (..., KEY_GENERATE_STRATEGY(COLUMN=item_id,
 * TYPE(NAME='IMPROVED_SNOWFLAKE', PROPERTIES(...))))} runs two steps in ShardingSphere 5.5: the statement checker
 * loads the algorithm with {@code TypedSPILoader.checkService} (our {@code init()} validates the props there), and the
 * executor hands the changed rule to {@code MetaDataManagerPersistService.alterRuleConfiguration}, which rebuilds the
 * sharding rule and with it the key generators. The 5.5 DistSQL parser and handler artifacts for sharding are not served
 * by the Maven repository this build uses, so this test takes those two steps itself on a real ShardingSphere-JDBC
 * context read from YAML; everything after the DistSQL front end is ShardingSphere's own code.
 */
class RuleChangedAtRunTimeTest {

    private static final String GENERATOR_NAME_DISTSQL_GIVES = "t_order_item_improved_snowflake";

    @TempDir
    Path directory;

    @AfterEach
    void releaseGenerators() {
        SnowKeyRuntime.get().closeAll();
    }

    @Test
    void theCheckDistSqlRunsBeforePersistingRejectsBadPropsWithSnowKeysMessage() {
        Properties props = props("worker-id-bits", "99");
        Exception failure = assertThrows(Exception.class, () -> TypedSPILoader.checkService(KeyGenerateAlgorithm.class, "IMPROVED_SNOWFLAKE", props));
        assertTrue(causeChain(failure).contains("Invalid SnowKey property 'worker-id-bits' = '99'"), causeChain(failure));
    }

    @Test
    @Timeout(120)
    void aKeyGeneratorReplacedAtRunTimeContinuesTheTablesKeysAndLeaksNoLease() throws Exception {
        ShardingSphereFixture fixture = new ShardingSphereFixture(directory, Map.of("worker-id", "24"));
        List<Long> before;
        List<Long> after;
        try (ShardingSphereDataSource dataSource = (ShardingSphereDataSource) fixture.openDataSource()) {
            before = insertItems(dataSource, 200);
            Properties props = props("worker-id", "24");
            TypedSPILoader.checkService(KeyGenerateAlgorithm.class, "IMPROVED_SNOWFLAKE", props);
            alter(dataSource, props);
            AlgorithmConfiguration shown = shardingRule(dataSource).getKeyGenerators().get(GENERATOR_NAME_DISTSQL_GIVES);
            assertEquals("IMPROVED_SNOWFLAKE", shown.getType(), "SHOW SHARDING KEY GENERATORS lists the new generator");
            assertEquals(GENERATOR_NAME_DISTSQL_GIVES, keyGeneratorOfItems(dataSource));
            after = insertItems(dataSource, 200);
        }
        assertContinues(before, after);
        assertEquals(List.of(), List.copyOf(SnowKeyRuntime.get().generators()), "closing the data source released every generator, the rebuilt one too");
    }

    @Test
    @Timeout(120)
    void aReplacementThatWouldShareTheWorkerIdWithOtherSettingsIsRefusedAndTheOldGeneratorGoesOn() throws Exception {
        ShardingSphereFixture fixture = new ShardingSphereFixture(directory, Map.of("worker-id", "25"));
        List<Long> before;
        List<Long> after;
        try (ShardingSphereDataSource dataSource = (ShardingSphereDataSource) fixture.openDataSource()) {
            before = insertItems(dataSource, 200);
            // ShardingSphere never closes the generator it replaces, so it keeps issuing on worker id 25 in this JVM:
            // a second generator on the same worker id with other settings could not share its streams safely.
            Properties props = props("worker-id", "25", "max-tolerate-time-difference-milliseconds", "20");
            Exception refused = assertThrows(Exception.class, () -> alter(dataSource, props));
            assertTrue(causeChain(refused).contains("max-tolerate-time-difference-milliseconds=20"), causeChain(refused));
            after = insertItems(dataSource, 200);
        }
        assertContinues(before, after);
        assertEquals(List.of(), List.copyOf(SnowKeyRuntime.get().generators()), "closing the data source released every generator");
    }

    private static void assertContinues(final List<Long> before, final List<Long> after) {
        Set<Long> distinct = new HashSet<>(before);
        distinct.addAll(after);
        assertEquals(before.size() + after.size(), distinct.size(), "no key twice across the change");
        long highestBefore = before.stream().mapToLong(Long::longValue).max().orElseThrow();
        assertTrue(after.stream().allMatch(each -> each > highestBefore), "keys after the change continue above those before it");
        int workerId = IdLayout.defaults().decode(before.get(0)).workerId();
        assertTrue(after.stream().allMatch(each -> IdLayout.defaults().decode(each).workerId() == workerId), "SnowKey's keys, on worker id " + workerId);
    }

    private static void alter(final ShardingSphereDataSource dataSource, final Properties props) throws Exception {
        ContextManager contextManager = field(dataSource, "contextManager", ContextManager.class);
        contextManager.getPersistServiceFacade().getMetaDataManagerPersistService()
                .alterRuleConfiguration(field(dataSource, "databaseName", String.class), withItemKeyGenerator(shardingRule(dataSource), props));
    }

    private static String keyGeneratorOfItems(final ShardingSphereDataSource dataSource) throws Exception {
        return shardingRule(dataSource).getTables().stream().filter(each -> "t_order_item".equals(each.getLogicTable())).findFirst().orElseThrow()
                .getKeyGenerateStrategy().getKeyGeneratorName();
    }

    private static Properties props(final String... keysAndValues) {
        Properties result = new Properties();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            result.setProperty(keysAndValues[i], keysAndValues[i + 1]);
        }
        return result;
    }

    private static ShardingRuleConfiguration shardingRule(final ShardingSphereDataSource dataSource) throws Exception {
        ContextManager contextManager = field(dataSource, "contextManager", ContextManager.class);
        String databaseName = field(dataSource, "databaseName", String.class);
        return contextManager.getMetaDataContexts().getMetaData().getDatabase(databaseName).getRuleMetaData().getSingleRule(ShardingRule.class).getConfiguration();
    }

    /** The rule after the ALTER: t_order_item's key column filled by a generator defined inline, named as DistSQL names it. */
    private static ShardingRuleConfiguration withItemKeyGenerator(final ShardingRuleConfiguration current, final Properties props) {
        ShardingRuleConfiguration result = new ShardingRuleConfiguration();
        Collection<ShardingTableRuleConfiguration> tables = new ArrayList<>();
        for (ShardingTableRuleConfiguration each : current.getTables()) {
            if (!"t_order_item".equals(each.getLogicTable())) {
                tables.add(each);
                continue;
            }
            ShardingTableRuleConfiguration altered = new ShardingTableRuleConfiguration(each.getLogicTable(), each.getActualDataNodes());
            altered.setDatabaseShardingStrategy(each.getDatabaseShardingStrategy());
            altered.setTableShardingStrategy(each.getTableShardingStrategy());
            altered.setKeyGenerateStrategy(new KeyGenerateStrategyConfiguration("item_id", GENERATOR_NAME_DISTSQL_GIVES));
            tables.add(altered);
        }
        result.setTables(tables);
        result.setShardingAlgorithms(new LinkedHashMap<>(current.getShardingAlgorithms()));
        Map<String, AlgorithmConfiguration> keyGenerators = new LinkedHashMap<>(current.getKeyGenerators());
        keyGenerators.put(GENERATOR_NAME_DISTSQL_GIVES, new AlgorithmConfiguration("IMPROVED_SNOWFLAKE", props));
        result.setKeyGenerators(keyGenerators);
        return result;
    }

    private static List<Long> insertItems(final DataSource dataSource, final int count) throws Exception {
        List<Long> result = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO t_order_item (user_id, note) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS)) {
            for (int i = 0; i < count; i++) {
                insert.setInt(1, i);
                insert.setString(2, "item " + i);
                insert.executeUpdate();
                try (ResultSet keys = insert.getGeneratedKeys()) {
                    assertTrue(keys.next(), "ShardingSphere returns the generated key");
                    result.add(keys.getLong(1));
                }
            }
        }
        return result;
    }

    private static <T> T field(final Object target, final String name, final Class<T> type) throws ReflectiveOperationException {
        Field field = target.getClass().getDeclaredField(name);
        field.setAccessible(true);
        return type.cast(field.get(target));
    }

    private static String causeChain(final Throwable failure) {
        StringBuilder result = new StringBuilder();
        for (Throwable each = failure; null != each; each = each.getCause()) {
            result.append(each.getClass().getSimpleName()).append(": ").append(each.getMessage()).append(" | ");
        }
        return result.toString();
    }
}
