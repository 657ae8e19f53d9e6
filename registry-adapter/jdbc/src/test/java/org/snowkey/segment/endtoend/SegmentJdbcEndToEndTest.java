package org.snowkey.segment.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;

/**
 * {@code SNOWKEY_SEGMENT} through the real ShardingSphere-JDBC 5.5.2 driver reading real YAML, with ranges from a
 * JDBC allocator table (H2 file database: shared by every connection, unlike the data sources' in-memory ones).
 */
class SegmentJdbcEndToEndTest {

    @TempDir
    Path directory;

    @AfterEach
    void closeScopes() {
        SegmentRuntime.get().closeAll();
    }

    private Map<String, String> allocatorProps(final String... more) {
        Map<String, String> props = new java.util.LinkedHashMap<>();
        props.put("segment-allocator", "jdbc");
        props.put("jdbc-url", "jdbc:h2:file:" + directory.resolve("ranges").toAbsolutePath() + ";AUTO_SERVER=TRUE");
        props.put("jdbc-username", "sa");
        props.put("segment-step-min", "10");
        props.put("segment-step-max", "10");
        for (int i = 0; i + 1 < more.length; i += 2) {
            props.put(more[i], more[i + 1]);
        }
        return props;
    }

    @Test
    void singleAndMultiRowInsertsGetDenseIncreasingKeysPerTable() throws Exception {
        SegmentYamlFixture fixture = new SegmentYamlFixture(directory, allocatorProps());
        DataSource dataSource = fixture.open();
        try (Connection connection = dataSource.getConnection()) {
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t_order (note) VALUES (?)")) {
                for (int i = 0; i < 25; i++) {
                    insert.setString(1, "o" + i);
                    insert.executeUpdate();
                }
            }
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate("INSERT INTO t_order_item (note) VALUES ('a'), ('b'), ('c'), ('d'), ('e')");
            }
        }
        List<Long> orders = new ArrayList<>(SegmentYamlFixture.keys(dataSource, "t_order", "order_id"));
        orders.sort(null);
        List<Long> expected = new ArrayList<>();
        for (long i = 1; i <= 25; i++) {
            expected.add(i);
        }
        assertEquals(expected, orders, "one instance, one key per table: 1, 2, 3, ... with no gap");
        List<Long> items = new ArrayList<>(SegmentYamlFixture.keys(dataSource, "t_order_item", "item_id"));
        items.sort(null);
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), items, "t_order_item has a sequence of its own");
        ((AutoCloseable) dataSource).close();
        assertTrue(SegmentRuntime.get().scopes().isEmpty(), "closing the data source closes its allocator");
    }

    @Test
    void withoutAnAllocatorStartUpFailsNamingTheProp() throws Exception {
        String chain = startUpFailure(Map.of());
        assertTrue(chain.contains("segment-allocator") && chain.contains("Standalone"), chain);
    }

    @Test
    void anUnknownPropFailsStartUpNamingItAndTheKnownOnes() throws Exception {
        String chain = startUpFailure(allocatorProps("segment-step-minimum", "10"));
        assertTrue(chain.contains("Invalid SnowKey property 'segment-step-minimum' (value not shown): unknown property of SNOWKEY_SEGMENT"), chain);
        assertTrue(chain.contains("known properties are [") && chain.contains("segment-step-min"), "lists the known props: " + chain);
    }

    @Test
    void aBadStepFailsStartUpNamingThePropAndTheValue() throws Exception {
        String zero = startUpFailure(allocatorProps("segment-step-min", "0"));
        assertTrue(zero.contains("Invalid SnowKey property 'segment-step-min' = '0'"), zero);
        String text = startUpFailure(allocatorProps("segment-step-max", "lots"));
        assertTrue(text.contains("Invalid SnowKey property 'segment-step-max' = 'lots'"), text);
        String belowMin = startUpFailure(allocatorProps("segment-step-min", "100", "segment-step-max", "50"));
        assertTrue(belowMin.contains("Invalid SnowKey property 'segment-step-max' = '50'") && belowMin.contains("segment-step-min (100)"), belowMin);
    }

    @Test
    void jdbcPropsWithoutSegmentAllocatorFailStartUpNamingPropAndValue() throws Exception {
        Map<String, String> props = allocatorProps();
        props.remove("segment-allocator");
        String chain = startUpFailure(props);
        // The first jdbc prop in name order is the one named.
        assertTrue(chain.contains("Invalid SnowKey property 'jdbc-url' = 'jdbc:h2:file:"), chain);
        assertTrue(chain.contains("segment-allocator is not set; set segment-allocator = jdbc"), chain);
    }

    @Test
    void aStartValueThatCouldNeverApplyFailsStartUpNamingPropAndValue() throws Exception {
        // Meant for t_order, but its key is <database>.t_order: silently ignored, t_order would restart at 1 below its rows.
        String chain = startUpFailure(allocatorProps("segment-start-values", "t_order=1001"));
        assertTrue(chain.contains("Invalid SnowKey property 'segment-start-values' = 't_order=1001'") && chain.contains("key 't_order' names no database"), chain);
    }

    /** Opening the YAML fails: every message of the cause chain, for the assertion to search. */
    private String startUpFailure(final Map<String, String> props) throws Exception {
        SegmentYamlFixture fixture = new SegmentYamlFixture(directory, props);
        Exception failure = assertThrows(Exception.class, fixture::open);
        StringBuilder chain = new StringBuilder();
        for (Throwable each = failure; each != null; each = each.getCause()) {
            chain.append(each.getMessage()).append(" | ");
        }
        assertTrue(SegmentRuntime.get().scopes().isEmpty(), "nothing opened: " + chain);
        return chain.toString();
    }
}
