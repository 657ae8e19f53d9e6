package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.shardingsphere.driver.jdbc.core.datasource.ShardingSphereDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.keygen.testing.RuleChange;
import org.snowkey.keygen.testing.ShardingSphereFixture;

/**
 * Through the real ShardingSphere 5.5.2 driver and YAML: every table and every key generator on one worker id
 * issues from one id space.
 */
class OneIdSpacePerWorkerIdThroughShardingSphereTest {

    @TempDir
    Path directory;

    @AfterEach
    void releaseGenerators() {
        SnowflakeRuntime.get().closeAll();
    }

    @Test
    @Timeout(120)
    void anOrderAndItsItemInsertedTogetherAfterIdlenessNeverShareAKeyAndEachTableStaysBalanced() throws Exception {
        // One IMPROVED_SNOWFLAKE named by both tables, sequence-scope table (the default). A time cache of 0 makes
        // every pause "idle longer than the cap": both tables' issuing timestamps move to the clock at once.
        ShardingSphereFixture fixture = new ShardingSphereFixture(directory, Map.of("worker-id", "41", "max-time-cache-milliseconds", "0"));
        List<Long> orders = new ArrayList<>();
        List<Long> items = new ArrayList<>();
        try (ShardingSphereDataSource dataSource = (ShardingSphereDataSource) fixture.openDataSource();
             Connection connection = dataSource.getConnection();
             PreparedStatement order = connection.prepareStatement("INSERT INTO t_order (user_id, note) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS);
             PreparedStatement item = connection.prepareStatement("INSERT INTO t_order_item (user_id, note) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS)) {
            for (int i = 0; i < 200; i++) {
                // The idle period between two orders (not a synchronisation: nothing waits for anything).
                Thread.sleep(1);
                orders.add(ShardingSphereFixture.insertRow(order, i));
                items.add(ShardingSphereFixture.insertRow(item, i));
            }
        }
        Set<Long> distinct = new HashSet<>(orders);
        distinct.addAll(items);
        assertEquals(400, distinct.size(), "no key twice across t_order and t_order_item: " + repeated(orders, items));
        assertEquals(100, orders.stream().filter(each -> each % 2 == 0).count(), "t_order's keys alternate key % 2");
        assertEquals(100, items.stream().filter(each -> each % 2 == 0).count(), "t_order_item's keys alternate key % 2");
        assertEquals(100, fixture.physicalRows(0, "t_order_item_0") + fixture.physicalRows(1, "t_order_item_0"), "t_order_item_0 holds half the items");
    }

    @Test
    @Timeout(180)
    void aTableMovedFromATableScopeToAGlobalKeyGeneratorOnTheSameWorkerIdNeverGetsAKeyBelowItsOwn() throws Exception {
        // t_order's key generator is global, t_order_item's issues per table; both on worker id 42, one scope.
        ShardingSphereFixture fixture = new ShardingSphereFixture(directory,
                Map.of("shared_global", "IMPROVED_SNOWFLAKE", "per_table", "IMPROVED_SNOWFLAKE"),
                Map.of("shared_global", Map.of("worker-id", "42", "sequence-scope", "global"), "per_table", Map.of("worker-id", "42")),
                Map.of("t_order", "shared_global", "t_order_item", "per_table"));
        List<Long> before;
        List<Long> after;
        try (ShardingSphereDataSource dataSource = (ShardingSphereDataSource) fixture.openDataSource()) {
            insertOrders(dataSource, 1);
            before = insertItems(dataSource, 2_000);
            // The rule change DistSQL's ALTER SHARDING TABLE RULE makes, taken the way RuleChangedAtRunTimeTest takes it.
            alterItemsKeyGenerator(dataSource, "shared_global");
            after = insertItems(dataSource, 2_000);
        }
        Set<Long> distinct = new HashSet<>(before);
        distinct.addAll(after);
        assertEquals(before.size() + after.size(), distinct.size(), "no key of t_order_item twice across the change: " + repeated(before, after));
        long highestBefore = before.stream().mapToLong(Long::longValue).max().orElseThrow();
        long lowestAfter = after.stream().mapToLong(Long::longValue).min().orElseThrow();
        assertTrue(lowestAfter > highestBefore, "after the change t_order_item got " + IdLayout.defaults().decode(lowestAfter)
                + ", below " + IdLayout.defaults().decode(highestBefore) + " which it got before");
    }

    private static String repeated(final List<Long> first, final List<Long> second) {
        Set<Long> firstSet = new HashSet<>(first);
        List<Long> result = second.stream().filter(firstSet::contains).toList();
        return result.size() + " repeated" + (result.isEmpty() ? "" : ", first " + IdLayout.defaults().decode(result.get(0)));
    }

    private static List<Long> insertOrders(final ShardingSphereDataSource dataSource, final int count) throws Exception {
        return ShardingSphereFixture.insertRows(dataSource, "INSERT INTO t_order (user_id, note) VALUES (?, ?)", count);
    }

    private static List<Long> insertItems(final ShardingSphereDataSource dataSource, final int count) throws Exception {
        return ShardingSphereFixture.insertRows(dataSource, "INSERT INTO t_order_item (user_id, note) VALUES (?, ?)", count);
    }

    /** Points t_order_item's key column at another key generator of the rule, through ShardingSphere's own rule change. */
    private static void alterItemsKeyGenerator(final ShardingSphereDataSource dataSource, final String keyGenerator) throws Exception {
        RuleChange change = new RuleChange(dataSource);
        change.pointKeyColumnAt("t_order_item", "item_id", keyGenerator, Map.of());
        assertEquals(keyGenerator, change.keyGeneratorOf("t_order_item"), "the rule change took effect");
    }
}
