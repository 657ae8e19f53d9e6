package org.snowkey.segment.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.LongStream;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.lease.store.jdbc.TestDatabase;
import org.snowkey.segment.store.RangeLogEntry;
import org.snowkey.segment.store.RangeReconciliation;
import org.snowkey.segment.store.jdbc.JdbcRangeLog;
import org.snowkey.segment.store.jdbc.JdbcSegmentSettings;
import org.snowkey.store.jdbc.JdbcTableName;

import com.zaxxer.hikari.HikariDataSource;

/**
 * {@code SNOWKEY_SEGMENT} in ShardingSphere-JDBC 5.5.2 Standalone mode from YAML, with its ranges from the table
 * allocator on each database SnowKey supports (H2, PostgreSQL, MariaDB; a server that is not running skips its cases
 * with the reason). The sharded tables are H2 in every case: what differs is where the ranges come from.
 */
class SegmentStandaloneEndToEndTest {

    /** Small fixed ranges: every test crosses several of them, single rows and batches alike. */
    private static final String STEP = "7";

    @TempDir
    Path directory;

    private TestDatabase database;

    private JdbcTableName table;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (AutoCloseable each : toClose) {
            each.close();
        }
        SegmentRuntime.get().closeAll();
        if (table != null) {
            database.dropQuietly(new JdbcTableName(table.value() + JdbcSegmentSettings.LOG_SUFFIX));
            database.dropQuietly(table);
        }
    }

    private Map<String, String> allocatorProps(final TestDatabase on, final String... more) {
        on.assumeAvailable();
        database = on;
        table = TestDatabase.uniqueTable("seg");
        Map<String, String> props = new LinkedHashMap<>();
        props.put("segment-allocator", "jdbc");
        props.put("jdbc-url", on.url());
        props.put("jdbc-username", on.username());
        if (!on.password().isEmpty()) {
            props.put("jdbc-password", on.password());
        }
        props.put("jdbc-table", table.value());
        props.put("segment-step-min", STEP);
        props.put("segment-step-max", STEP);
        // Not what these tests are about: the first allocation creates the tables, which may be slow on a loaded machine.
        props.put("segment-fetch-timeout-milliseconds", "30000");
        for (int i = 0; i + 1 < more.length; i += 2) {
            props.put(more[i], more[i + 1]);
        }
        return props;
    }

    private DataSource open(final SegmentYamlFixture fixture) throws Exception {
        DataSource dataSource = fixture.open();
        toClose.add((AutoCloseable) dataSource);
        return dataSource;
    }

    /** The allocator's log, read beside ShardingSphere. */
    private JdbcRangeLog rangeLog() {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(database.url());
        pool.setUsername(database.username());
        pool.setPassword(database.password());
        pool.setMaximumPoolSize(1);
        toClose.add(pool);
        return new JdbcRangeLog(pool, new JdbcSegmentSettings(table, false, 5_000L, database.url()));
    }

    private static List<Long> oneTo(final long last) {
        return LongStream.rangeClosed(1, last).boxed().toList();
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void singleAndMultiRowInsertsGetDenseIncreasingKeysPerTableSplitEvenlyByParity(final TestDatabase on) throws Exception {
        SegmentYamlFixture fixture = new SegmentYamlFixture(directory, allocatorProps(on));
        DataSource dataSource = open(fixture);
        int orders = 0;
        int items = 0;
        try (Connection connection = dataSource.getConnection();
             PreparedStatement order = connection.prepareStatement("INSERT INTO t_order (note) VALUES (?)");
             PreparedStatement threeOrders = connection.prepareStatement("INSERT INTO t_order (note) VALUES (?), (?), (?)");
             PreparedStatement fourItems = connection.prepareStatement("INSERT INTO t_order_item (note) VALUES (?), (?), (?), (?)")) {
            for (int round = 0; round < 10; round++) {
                for (int i = 0; i < 2; i++) {
                    order.setString(1, Integer.toString(orders++));
                    order.executeUpdate();
                }
                for (int i = 1; i <= 3; i++) {
                    threeOrders.setString(i, Integer.toString(orders++));
                }
                threeOrders.executeUpdate();
                for (int i = 1; i <= 4; i++) {
                    fourItems.setString(i, Integer.toString(items++));
                }
                fourItems.executeUpdate();
            }
            // One INSERT of more rows than a range holds: its keys come from three ranges, still in row order.
            StringBuilder tenItems = new StringBuilder("INSERT INTO t_order_item (note) VALUES ");
            for (int i = 0; i < 10; i++) {
                tenItems.append(i == 0 ? "" : ", ").append("('").append(items++).append("')");
            }
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate(tenItems.toString());
            }
        }
        // Ranges of 7 and batches of 3 and 4 cross range ends often; one instance still sees 1, 2, 3, ... in insert order.
        assertEquals(oneTo(orders), SegmentYamlFixture.keysInInsertOrder(dataSource, "t_order", "order_id"), "t_order: dense and increasing");
        assertEquals(oneTo(items), SegmentYamlFixture.keysInInsertOrder(dataSource, "t_order_item", "item_id"), "t_order_item: a sequence of its own");
        assertSplitByParity(fixture, "t_order", "order_id", orders);
        assertSplitByParity(fixture, "t_order_item", "item_id", items);
        JdbcRangeLog log = rangeLog();
        for (String each : List.of("t_order", "t_order_item")) {
            String key = fixture.databaseName() + "." + each;
            RangeReconciliation reconciled = RangeReconciliation.ofLog(log, key, 1_000).requireNoOverlap();
            assertEquals(List.of(), reconciled.gaps(), "one instance, nothing lost: " + reconciled.report());
            assertEquals(1L, reconciled.ranges().get(0).first(), reconciled.report());
            assertTrue(reconciled.ranges().size() >= (each.equals("t_order") ? orders : items) / 7, "ranges of 7: " + reconciled.report());
            assertTrue(reconciled.ranges().stream().allMatch(range -> range.size() == 7), reconciled.report());
        }
    }

    /** {@code key % 2} routing: even keys in {@code _0}, odd ones in {@code _1}, and dense keys split the rows evenly. */
    private static void assertSplitByParity(final SegmentYamlFixture fixture, final String logic, final String keyColumn, final int rows) throws SQLException {
        List<Long> even = fixture.physicalKeys(logic + "_0", keyColumn);
        List<Long> odd = fixture.physicalKeys(logic + "_1", keyColumn);
        assertTrue(even.stream().allMatch(each -> each % 2 == 0) && odd.stream().allMatch(each -> each % 2 == 1), logic + ": " + even + " / " + odd);
        assertEquals(rows / 2, even.size(), logic + "_0");
        assertEquals(rows - rows / 2, odd.size(), logic + "_1");
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aSharedSegmentKeyGivesEveryTableKeysFromOneSequence(final TestDatabase on) throws Exception {
        SegmentYamlFixture fixture = new SegmentYamlFixture(directory, allocatorProps(on, "segment-key", "Orders_And_Items"));
        DataSource dataSource = open(fixture);
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            for (int i = 0; i < 10; i++) {
                statement.executeUpdate("INSERT INTO t_order (note) VALUES ('" + i + "')");
                statement.executeUpdate("INSERT INTO t_order_item (note) VALUES ('" + 2 * i + "'), ('" + (2 * i + 1) + "')");
            }
        }
        List<Long> orders = SegmentYamlFixture.keysInInsertOrder(dataSource, "t_order", "order_id");
        List<Long> items = SegmentYamlFixture.keysInInsertOrder(dataSource, "t_order_item", "item_id");
        assertIncreasing(orders);
        assertIncreasing(items);
        TreeSet<Long> all = new TreeSet<>(orders);
        all.addAll(items);
        assertEquals(30, all.size(), "no key in both tables: " + orders + " / " + items);
        assertEquals(oneTo(30), new ArrayList<>(all), "one dense sequence over both tables");
        assertEquals(List.of(1L, 4L, 7L), orders.subList(0, 3), "one order, two items, one order, ...: " + orders);
        // The key is folded as a table name would be; no per-table key was used.
        assertEquals(List.of("orders_and_items"), rangeLog().keys());
    }

    private static void assertIncreasing(final List<Long> keys) {
        for (int i = 1; i < keys.size(); i++) {
            assertTrue(keys.get(i) > keys.get(i - 1), "increasing in insert order: " + keys);
        }
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void startValuesContinueAboveTheRowsATableAlreadyHas(final TestDatabase on) throws Exception {
        // Tables with rows from before SnowKey: orders up to 1000, items up to 41. The key is written as users may
        // write it (case, spaces): folded as ShardingSphere folds table names.
        String database = SegmentYamlFixture.randomName();
        SegmentYamlFixture fixture = new SegmentYamlFixture(directory, database, allocatorProps(on, "segment-start-values", " " + database.toUpperCase(java.util.Locale.ROOT) + ".T_Order = 1001 ",
                "segment-start-value", "42"));
        fixture.executePhysical("INSERT INTO t_order_0 VALUES (998, 'old'), (1000, 'old')");
        fixture.executePhysical("INSERT INTO t_order_1 VALUES (999, 'old')");
        fixture.executePhysical("INSERT INTO t_order_item_1 VALUES (41, 'old')");
        DataSource dataSource = open(fixture);
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            for (int i = 0; i < 10; i++) {
                // A primary key violation here would mean a key below the existing rows.
                statement.executeUpdate("INSERT INTO t_order (note) VALUES ('" + i + "')");
                statement.executeUpdate("INSERT INTO t_order_item (note) VALUES ('" + i + "')");
            }
        }
        List<Long> newOrders = new ArrayList<>(fixture.physicalKeys("t_order_0", "order_id"));
        newOrders.addAll(fixture.physicalKeys("t_order_1", "order_id"));
        newOrders.removeAll(List.of(998L, 999L, 1000L));
        newOrders.sort(null);
        assertEquals(LongStream.rangeClosed(1001, 1010).boxed().toList(), newOrders, "t_order continues at its start value");
        List<Long> newItems = new ArrayList<>(fixture.physicalKeys("t_order_item_0", "item_id"));
        newItems.addAll(fixture.physicalKeys("t_order_item_1", "item_id"));
        newItems.remove(41L);
        newItems.sort(null);
        assertEquals(LongStream.rangeClosed(42, 51).boxed().toList(), newItems, "other tables continue at segment-start-value");
        List<RangeLogEntry> logged = rangeLog().recent(database + ".t_order", 1);
        assertTrue(logged.get(0).range().last() >= 1010, "logged under the folded key: " + logged);
    }
}
