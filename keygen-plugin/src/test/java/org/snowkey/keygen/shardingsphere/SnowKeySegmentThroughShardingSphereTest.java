package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.keygen.testing.ShardingSphereFixture;

/**
 * {@code SNOWKEY_SEGMENT} through the real ShardingSphere-JDBC 5.5.2 driver and YAML, over the in-JVM test allocator
 * (the JDBC and ZooKeeper allocators are tested end to end in their modules): what the glue decides, the key of each
 * INSERT, multi-row batches and the scope's life with the data source.
 */
class SnowKeySegmentThroughShardingSphereTest {

    @TempDir
    Path directory;

    @AfterEach
    void closeScopes() {
        SegmentRuntime.get().closeAll();
    }

    private ShardingSphereFixture fixture(final String store, final String... more) throws Exception {
        Map<String, String> props = new java.util.LinkedHashMap<>();
        props.put("segment-allocator", "test");
        props.put("test-store", store + System.nanoTime());
        props.put("segment-step-min", "16");
        props.put("segment-step-max", "16");
        for (int i = 0; i + 1 < more.length; i += 2) {
            props.put(more[i], more[i + 1]);
        }
        return new ShardingSphereFixture(directory, SnowKeySegmentKeyGenerateAlgorithm.TYPE, props);
    }

    private static void execute(final DataSource dataSource, final String... statements) throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            for (String each : statements) {
                statement.executeUpdate(each);
            }
        }
    }

    private static List<Long> sorted(final List<Long> keys) {
        List<Long> result = new ArrayList<>(keys);
        result.sort(null);
        return result;
    }

    @Test
    void everySpellingOfATableDrawsFromOneSequence() throws Exception {
        ShardingSphereFixture fixture = fixture("spelling");
        DataSource dataSource = fixture.openDataSource();
        execute(dataSource, "INSERT INTO t_order (user_id, note) VALUES (1, 'a')", "INSERT INTO T_ORDER (user_id, note) VALUES (1, 'b')",
                "INSERT INTO `t_order` (user_id, note) VALUES (1, 'c')");
        assertEquals(List.of(1L, 2L, 3L), sorted(fixture.keys("t_order", "order_id")), "one sequence, so no key twice and none skipped");
        ((AutoCloseable) dataSource).close();
    }

    @Test
    void aMultiRowInsertTakesConsecutiveKeysAndTablesCountOnTheirOwn() throws Exception {
        ShardingSphereFixture fixture = fixture("batch");
        DataSource dataSource = fixture.openDataSource();
        execute(dataSource, "INSERT INTO t_order (user_id, note) VALUES (1, 'a'), (0, 'b'), (1, 'c'), (0, 'd'), (1, 'e')",
                "INSERT INTO t_order_item (user_id, note) VALUES (1, 'a'), (0, 'b')");
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), sorted(fixture.keys("t_order", "order_id")));
        assertEquals(List.of(1L, 2L), sorted(fixture.keys("t_order_item", "item_id")));
        assertEquals(3, fixture.physicalRows(0, "t_order_1") + fixture.physicalRows(1, "t_order_1"), "odd keys to t_order_1");
        ((AutoCloseable) dataSource).close();
    }

    @Test
    void aSharedKeyMakesKeysUniqueAcrossTables() throws Exception {
        ShardingSphereFixture fixture = fixture("shared", "segment-key", "all_orders");
        DataSource dataSource = fixture.openDataSource();
        execute(dataSource, "INSERT INTO t_order (user_id, note) VALUES (1, 'a')", "INSERT INTO t_order_item (user_id, note) VALUES (1, 'b')",
                "INSERT INTO t_order (user_id, note) VALUES (1, 'c')");
        assertEquals(List.of(1L, 3L), sorted(fixture.keys("t_order", "order_id")));
        assertEquals(List.of(2L), fixture.keys("t_order_item", "item_id"));
        ((AutoCloseable) dataSource).close();
    }

    @Test
    void closingTheDataSourceClosesItsScopeAndTheNextOneContinuesAbove() throws Exception {
        ShardingSphereFixture fixture = fixture("reopen");
        DataSource first = fixture.openDataSource();
        execute(first, "INSERT INTO t_order (user_id, note) VALUES (1, 'a')");
        assertEquals(1, SegmentRuntime.get().scopes().size());
        ((AutoCloseable) first).close();
        assertTrue(SegmentRuntime.get().scopes().isEmpty(), "the context's scope closed with it");
        DataSource second = fixture.openDataSource();
        execute(second, "INSERT INTO t_order (user_id, note) VALUES (1, 'b')");
        assertEquals(List.of(1L, 17L), sorted(fixture.keys("t_order", "order_id")), "the rest of the first range (2..16) is a gap, never reused");
        ((AutoCloseable) second).close();
    }
}
