package org.snowkey.keygen.testing;

import java.lang.reflect.Field;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.shardingsphere.driver.jdbc.core.datasource.ShardingSphereDataSource;
import org.apache.shardingsphere.infra.algorithm.core.config.AlgorithmConfiguration;
import org.apache.shardingsphere.mode.manager.ContextManager;
import org.apache.shardingsphere.sharding.api.config.ShardingRuleConfiguration;
import org.apache.shardingsphere.sharding.api.config.rule.ShardingTableRuleConfiguration;
import org.apache.shardingsphere.sharding.api.config.strategy.keygen.KeyGenerateStrategyConfiguration;
import org.apache.shardingsphere.sharding.rule.ShardingRule;

/**
 * The sharding rule change DistSQL's {@code ALTER SHARDING TABLE RULE ... KEY_GENERATE_STRATEGY(...)} makes on a
 * running ShardingSphere 5.5.2 context, taken below the DistSQL front end (whose 5.5 artifacts are not served here):
 * the altered rule goes to {@code MetaDataManagerPersistService.alterRuleConfiguration}, which rebuilds the sharding
 * rule and with it the key generators, as on a Proxy.
 */
public final class RuleChange {

    private final ShardingSphereDataSource dataSource;

    public RuleChange(final ShardingSphereDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The sharding rule as ShardingSphere holds it now. */
    public ShardingRuleConfiguration shardingRule() throws ReflectiveOperationException {
        return contextManager().getMetaDataContexts().getMetaData().getDatabase(databaseName()).getRuleMetaData()
                .getSingleRule(ShardingRule.class).getConfiguration();
    }

    /** The key generator now named by the logic table's key-generate strategy. */
    public String keyGeneratorOf(final String logicTable) throws ReflectiveOperationException {
        return shardingRule().getTables().stream().filter(each -> logicTable.equals(each.getLogicTable())).findFirst().orElseThrow()
                .getKeyGenerateStrategy().getKeyGeneratorName();
    }

    /**
     * Points the logic table's key column at {@code keyGenerator}, first adding {@code addedKeyGenerators} to the rule
     * (DistSQL names a generator defined inline in the ALTER itself).
     */
    public void pointKeyColumnAt(final String logicTable, final String keyColumn, final String keyGenerator,
                                 final Map<String, AlgorithmConfiguration> addedKeyGenerators) throws ReflectiveOperationException, SQLException {
        ShardingRuleConfiguration current = shardingRule();
        ShardingRuleConfiguration altered = new ShardingRuleConfiguration();
        Collection<ShardingTableRuleConfiguration> tables = new ArrayList<>();
        for (ShardingTableRuleConfiguration each : current.getTables()) {
            if (!logicTable.equals(each.getLogicTable())) {
                tables.add(each);
                continue;
            }
            ShardingTableRuleConfiguration table = new ShardingTableRuleConfiguration(each.getLogicTable(), each.getActualDataNodes());
            table.setDatabaseShardingStrategy(each.getDatabaseShardingStrategy());
            table.setTableShardingStrategy(each.getTableShardingStrategy());
            table.setKeyGenerateStrategy(new KeyGenerateStrategyConfiguration(keyColumn, keyGenerator));
            tables.add(table);
        }
        altered.setTables(tables);
        altered.setShardingAlgorithms(new LinkedHashMap<>(current.getShardingAlgorithms()));
        Map<String, AlgorithmConfiguration> keyGenerators = new LinkedHashMap<>(current.getKeyGenerators());
        keyGenerators.putAll(addedKeyGenerators);
        altered.setKeyGenerators(keyGenerators);
        contextManager().getPersistServiceFacade().getMetaDataManagerPersistService().alterRuleConfiguration(databaseName(), altered);
    }

    private ContextManager contextManager() throws ReflectiveOperationException {
        return field("contextManager", ContextManager.class);
    }

    private String databaseName() throws ReflectiveOperationException {
        return field("databaseName", String.class);
    }

    private <T> T field(final String name, final Class<T> type) throws ReflectiveOperationException {
        Field field = ShardingSphereDataSource.class.getDeclaredField(name);
        field.setAccessible(true);
        return type.cast(field.get(dataSource));
    }
}
