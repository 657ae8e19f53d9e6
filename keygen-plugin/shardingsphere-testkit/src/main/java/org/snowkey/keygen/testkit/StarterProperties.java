package org.snowkey.keygen.testkit;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code spring.shardingsphere.*} properties of ShardingSphere's own Spring Boot starter (5.1 and 5.2) for the
 * {@link LineFixture} databases: {@code t_order} sharded over two H2 data sources, keys by {@code snowkey}.
 */
public final class StarterProperties {

    private StarterProperties() {
    }

    public static Map<String, Object> sharding(final LineFixture fixture, final Map<String, String> keyGeneratorProps) {
        String prefix = "spring.shardingsphere.";
        Map<String, Object> result = new LinkedHashMap<>();
        result.put(prefix + "datasource.names", "ds0,ds1");
        for (int ds = 0; ds < 2; ds++) {
            String each = prefix + "datasource.ds" + ds + ".";
            result.put(each + "type", "com.zaxxer.hikari.HikariDataSource");
            result.put(each + "driver-class-name", "org.h2.Driver");
            result.put(each + "jdbc-url", fixture.h2Url(ds));
            result.put(each + "username", "sa");
            result.put(each + "password", "");
        }
        String rules = prefix + "rules.sharding.";
        String table = rules + "tables.t_order.";
        result.put(table + "actual-data-nodes", "ds$->{0..1}.t_order_$->{0..1}");
        result.put(table + "database-strategy.standard.sharding-column", "user_id");
        result.put(table + "database-strategy.standard.sharding-algorithm-name", "by-user");
        result.put(table + "table-strategy.standard.sharding-column", "order_id");
        result.put(table + "table-strategy.standard.sharding-algorithm-name", "by-order-id");
        result.put(table + "key-generate-strategy.column", "order_id");
        result.put(table + "key-generate-strategy.key-generator-name", "snowkey");
        result.put(rules + "sharding-algorithms.by-user.type", "INLINE");
        result.put(rules + "sharding-algorithms.by-user.props.algorithm-expression", "ds$->{user_id % 2}");
        result.put(rules + "sharding-algorithms.by-order-id.type", "INLINE");
        result.put(rules + "sharding-algorithms.by-order-id.props.algorithm-expression", "t_order_$->{order_id % 2}");
        result.put(rules + "key-generators.snowkey.type", "IMPROVED_SNOWFLAKE");
        keyGeneratorProps.forEach((key, value) -> result.put(rules + "key-generators.snowkey.props." + key, value));
        return result;
    }
}
