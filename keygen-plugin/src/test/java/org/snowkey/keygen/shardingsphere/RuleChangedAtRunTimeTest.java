package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import javax.sql.DataSource;

import org.apache.shardingsphere.driver.jdbc.core.datasource.ShardingSphereDataSource;
import org.apache.shardingsphere.infra.algorithm.core.config.AlgorithmConfiguration;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;
import org.apache.shardingsphere.infra.spi.type.typed.TypedSPILoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.keygen.testing.RuleChange;
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
        SnowflakeRuntime.get().closeAll();
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
            AlgorithmConfiguration shown = new RuleChange(dataSource).shardingRule().getKeyGenerators().get(GENERATOR_NAME_DISTSQL_GIVES);
            assertEquals("IMPROVED_SNOWFLAKE", shown.getType(), "SHOW SHARDING KEY GENERATORS lists the new generator");
            assertEquals(GENERATOR_NAME_DISTSQL_GIVES, new RuleChange(dataSource).keyGeneratorOf("t_order_item"));
            after = insertItems(dataSource, 200);
        }
        assertContinues(before, after);
        assertEquals(List.of(), List.copyOf(SnowflakeRuntime.get().generators()), "closing the data source released every generator, the rebuilt one too");
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
        assertEquals(List.of(), List.copyOf(SnowflakeRuntime.get().generators()), "closing the data source released every generator");
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
        new RuleChange(dataSource).pointKeyColumnAt("t_order_item", "item_id", GENERATOR_NAME_DISTSQL_GIVES,
                Map.of(GENERATOR_NAME_DISTSQL_GIVES, new AlgorithmConfiguration("IMPROVED_SNOWFLAKE", props)));
    }

    private static Properties props(final String... keysAndValues) {
        Properties result = new Properties();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            result.setProperty(keysAndValues[i], keysAndValues[i + 1]);
        }
        return result;
    }

    private static List<Long> insertItems(final DataSource dataSource, final int count) throws Exception {
        return ShardingSphereFixture.insertRows(dataSource, "INSERT INTO t_order_item (user_id, note) VALUES (?, ?)", count);
    }

    private static String causeChain(final Throwable failure) {
        StringBuilder result = new StringBuilder();
        for (Throwable each = failure; null != each; each = each.getCause()) {
            result.append(each.getClass().getSimpleName()).append(": ").append(each.getMessage()).append(" | ");
        }
        return result.toString();
    }
}
