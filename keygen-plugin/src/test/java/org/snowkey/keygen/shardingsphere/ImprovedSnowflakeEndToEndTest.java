package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.layout.DecodedId;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.keygen.testing.ShardingSphereFixture;

/** IMPROVED_SNOWFLAKE through the real ShardingSphere-JDBC driver reading real YAML over H2. */
class ImprovedSnowflakeEndToEndTest {

    private static final int INSERTS_PER_TABLE = 400;

    @TempDir
    Path directory;

    @AfterEach
    void releaseGenerators() {
        SnowflakeRuntime.get().closeAll();
    }

    @Test
    void aLeasePropInStandaloneModeWithoutARegistryFailsStartUpInsteadOfLeavingEveryInstanceOnWorkerIdZero() throws Exception {
        ShardingSphereFixture fixture = new ShardingSphereFixture(directory, Map.of("lease-duration-milliseconds", "5000"));
        Exception failure = assertThrows(Exception.class, () -> {
            try (Connection connection = fixture.connect(); Statement statement = connection.createStatement()) {
                statement.executeUpdate("INSERT INTO t_order (user_id, note) VALUES (1, 'x')");
            }
        });
        StringBuilder chain = new StringBuilder();
        for (Throwable each = failure; each != null; each = each.getCause()) {
            chain.append(each.getMessage()).append(" | ");
        }
        assertTrue(chain.toString().contains("Invalid SnowKey property 'lease-duration-milliseconds' = '5000': cannot apply: ShardingSphere runs in Standalone mode"),
                chain.toString());
    }

    @Test
    void fillsKeysThatDecodeToTheConfiguredWorkerAndNow() throws Exception {
        ShardingSphereFixture fixture = new ShardingSphereFixture(directory, Map.of("worker-id", "21"));
        long before = System.currentTimeMillis();
        long generated;
        try (Connection connection = fixture.connect();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO t_order (user_id, note) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS)) {
            insert.setInt(1, 7);
            insert.setString(2, "first");
            insert.executeUpdate();
            try (ResultSet keys = insert.getGeneratedKeys()) {
                assertTrue(keys.next(), "ShardingSphere returns the generated key");
                generated = keys.getLong(1);
            }
        }
        assertEquals(List.of(generated), fixture.keys("t_order", "order_id"));
        DecodedId decoded = IdLayout.defaults().decode(generated);
        assertEquals(21, decoded.workerId());
        assertTrue(decoded.timestamp().toEpochMilli() >= before - 1 && decoded.timestamp().toEpochMilli() <= System.currentTimeMillis(),
                "timestamp " + decoded.timestamp() + " lies in the test's time");
        assertEquals(1, fixture.physicalRows(1, "t_order_" + (generated % 2)), "routed to ds_1 by user_id and to the table by order_id % 2");
    }

    @Test
    void insertsAlternatingBetweenTwoTablesLeaveEachTableBalanced() throws Exception {
        ShardingSphereFixture fixture = new ShardingSphereFixture(directory, Map.of("worker-id", "22"));
        insertAlternating(fixture);
        for (String[] table : new String[][] {{"t_order", "order_id"}, {"t_order_item", "item_id"}}) {
            List<Long> keys = fixture.keys(table[0], table[1]);
            assertEquals(INSERTS_PER_TABLE, keys.size());
            assertEquals(INSERTS_PER_TABLE / 2, keys.stream().filter(each -> each % 2 == 0).count(), table[0] + ": id % 2 split evenly");
        }
        assertEquals(INSERTS_PER_TABLE / 2, fixture.physicalRows(0, "t_order_0") + fixture.physicalRows(1, "t_order_0"));
    }

    @Test
    void moreLowBitsBalanceIdModuloFourPerTable() throws Exception {
        ShardingSphereFixture fixture = new ShardingSphereFixture(directory, Map.of("worker-id", "23", "sequence-low-bits", "2"));
        insertAlternating(fixture);
        for (String[] table : new String[][] {{"t_order", "order_id"}, {"t_order_item", "item_id"}}) {
            List<Long> keys = fixture.keys(table[0], table[1]);
            for (int residue = 0; residue < 4; residue++) {
                int r = residue;
                assertEquals(INSERTS_PER_TABLE / 4, keys.stream().filter(each -> each % 4 == r).count(), table[0] + ": id % 4 == " + residue);
            }
        }
    }

    @Test
    void globalSequenceScopeNeverRepeatsAnIdAcrossTables() throws Exception {
        ShardingSphereFixture fixture = new ShardingSphereFixture(directory, Map.of("worker-id", "24", "sequence-scope", "global"));
        insertAlternating(fixture);
        Set<Long> all = new HashSet<>(fixture.keys("t_order", "order_id"));
        all.addAll(fixture.keys("t_order_item", "item_id"));
        assertEquals(2 * INSERTS_PER_TABLE, all.size(), "no id appears in both tables");
    }

    @Test
    void aMultiRowInsertTakesOneBatchOfConsecutiveIds() throws Exception {
        ShardingSphereFixture fixture = new ShardingSphereFixture(directory, Map.of("worker-id", "25"));
        try (Connection connection = fixture.connect(); Statement statement = connection.createStatement()) {
            statement.executeUpdate("INSERT INTO t_order (user_id, note) VALUES (1, 'a'), (1, 'b'), (1, 'c'), (1, 'd')");
        }
        List<Long> keys = fixture.keys("t_order", "order_id").stream().sorted().toList();
        assertEquals(4, keys.size());
        assertEquals(2, keys.stream().filter(each -> each % 2 == 0).count());
    }

    @Test
    void closingTheShardingSphereDataSourceReleasesTheLeaseAndTheNextOneContinuesAboveIt() throws Exception {
        ShardingSphereFixture fixture = new ShardingSphereFixture(directory, Map.of("worker-id", "26"));
        javax.sql.DataSource first = fixture.openDataSource();
        long before = insertOne(first);
        int generatorsBefore = SnowflakeRuntime.get().generators().size();
        ((AutoCloseable) first).close();
        assertEquals(generatorsBefore - 1, SnowflakeRuntime.get().generators().size(), "the context's scope was closed with it");
        javax.sql.DataSource second = fixture.openDataSource();
        long after = insertOne(second);
        ((AutoCloseable) second).close();
        assertTrue(IdLayout.defaults().decode(after).logicalTimestamp() > IdLayout.defaults().decode(before).logicalTimestamp(),
                "the next grant of worker id 26 starts above the released high-water mark");
    }

    /**
     * ShardingSphere finds a logic table by a case-insensitive map and passes the INSERT's own spelling to the key
     * generator: {@code T_ORDER_İTEM} (a dotted capital I, which {@code String.toLowerCase} turns into two chars) is
     * {@code t_order_item} to it, so it must be SnowKey's one stream of that table, not a second counter on the same
     * worker id.
     */
    @Test
    void everySpellingShardingSphereRoutesToOneTableDrawsFromOneStream() throws Exception {
        ShardingSphereFixture fixture = new ShardingSphereFixture(directory, Map.of("worker-id", "27"));
        try (Connection connection = fixture.connect();
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("INSERT INTO t_order_item (user_id, note) VALUES (1, 'plain')");
            statement.executeUpdate("INSERT INTO T_ORDER_\u0130TEM (user_id, note) VALUES (1, 'dotted capital I')");
            statement.executeUpdate("INSERT INTO `T_Order_Item` (user_id, note) VALUES (1, 'quoted')");
        }
        assertEquals(3, fixture.keys("t_order_item", "item_id").size(), "ShardingSphere took every spelling for the one logic table");
        IdGenerator generator = SnowflakeRuntime.get().generators().stream().filter(each -> each.currentGrant().workerId() == 27).findFirst().orElseThrow();
        assertEquals(1, generator.streams().size(), () -> "one table, one stream: " + generator.streams().keySet());
    }

    private static long insertOne(final javax.sql.DataSource dataSource) throws Exception {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO t_order (user_id, note) VALUES (1, 'x')", Statement.RETURN_GENERATED_KEYS)) {
            insert.executeUpdate();
            try (ResultSet keys = insert.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    private static void insertAlternating(final ShardingSphereFixture fixture) throws Exception {
        try (Connection connection = fixture.connect();
             PreparedStatement order = connection.prepareStatement("INSERT INTO t_order (user_id, note) VALUES (?, 'o')");
             PreparedStatement item = connection.prepareStatement("INSERT INTO t_order_item (user_id, note) VALUES (?, 'i')")) {
            for (int i = 0; i < INSERTS_PER_TABLE; i++) {
                order.setInt(1, i);
                order.executeUpdate();
                item.setInt(1, i);
                item.executeUpdate();
            }
        }
    }
}
