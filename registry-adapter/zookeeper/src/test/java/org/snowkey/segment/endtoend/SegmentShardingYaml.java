package org.snowkey.segment.endtoend;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import javax.sql.DataSource;

/**
 * ShardingSphere-JDBC 5.5 YAML for the segment tests of this module: one H2 data source, logic tables {@code t_order}
 * (key generator {@code orders}) and {@code t_order_item} (key generator {@code items}), each split in two by
 * {@code key % 2}, both of type {@code SNOWKEY_SEGMENT} with the props given. Rows carry their insert number in
 * {@code seq}. Written at run time: ShardingSphere resolves no placeholders.
 */
final class SegmentShardingYaml {

    static final String DATABASE = "sharding_db";

    private SegmentShardingYaml() {
    }

    /**
     * @param mode        the {@code mode:} block (with its indentation), or empty for Standalone
     * @param orderProps  props of the key generator of {@code t_order}
     * @param itemProps   props of the key generator of {@code t_order_item}
     */
    static Path write(final Path file, final String h2Url, final String mode, final Map<String, String> orderProps, final Map<String, String> itemProps)
            throws IOException {
        String text = "databaseName: " + DATABASE + "\n"
                + mode
                + "dataSources:\n"
                + "  ds:\n"
                + "    dataSourceClassName: com.zaxxer.hikari.HikariDataSource\n"
                + "    driverClassName: org.h2.Driver\n"
                + "    jdbcUrl: " + h2Url + "\n"
                + "    username: sa\n"
                + "    password: ''\n"
                + "    maximumPoolSize: 4\n"
                + "rules:\n"
                + "- !SHARDING\n"
                + "  tables:\n"
                + table("t_order", "order_id", "orders")
                + table("t_order_item", "item_id", "items")
                + "  shardingAlgorithms:\n"
                + algorithm("t_order", "order_id")
                + algorithm("t_order_item", "item_id")
                + "  keyGenerators:\n"
                + generator("orders", orderProps)
                + generator("items", itemProps)
                + "props:\n"
                + "  sql-show: false\n";
        Files.writeString(file, text);
        return file;
    }

    /** The physical tables, created beside ShardingSphere before it starts (it loads their metadata then). */
    static void createTables(final String h2Url) throws SQLException {
        try (Connection connection = DriverManager.getConnection(h2Url, "sa", ""); Statement statement = connection.createStatement()) {
            for (int i = 0; i < 2; i++) {
                statement.execute("CREATE TABLE IF NOT EXISTS t_order_" + i + " (order_id BIGINT PRIMARY KEY, seq INT NOT NULL)");
                statement.execute("CREATE TABLE IF NOT EXISTS t_order_item_" + i + " (item_id BIGINT PRIMARY KEY, seq INT NOT NULL)");
            }
        }
    }

    /** The keys of a logic table in insert order (by {@code seq}), read through ShardingSphere. */
    static List<Long> keysInInsertOrder(final DataSource dataSource, final String logicTable, final String keyColumn) throws SQLException {
        TreeMap<Integer, Long> bySeq = new TreeMap<>();
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT " + keyColumn + ", seq FROM " + logicTable)) {
            while (rows.next()) {
                if (bySeq.put(rows.getInt(2), rows.getLong(1)) != null) {
                    throw new IllegalStateException("seq " + rows.getInt(2) + " twice in " + logicTable);
                }
            }
        }
        return new ArrayList<>(bySeq.values());
    }

    private static String table(final String logic, final String keyColumn, final String generator) {
        return "    " + logic + ":\n"
                + "      actualDataNodes: ds." + logic + "_${0..1}\n"
                + "      tableStrategy:\n"
                + "        standard:\n"
                + "          shardingColumn: " + keyColumn + "\n"
                + "          shardingAlgorithmName: " + logic + "_by_key\n"
                + "      keyGenerateStrategy:\n"
                + "        column: " + keyColumn + "\n"
                + "        keyGeneratorName: " + generator + "\n";
    }

    private static String algorithm(final String logic, final String keyColumn) {
        return "    " + logic + "_by_key:\n"
                + "      type: INLINE\n"
                + "      props:\n"
                + "        algorithm-expression: " + logic + "_${" + keyColumn + " % 2}\n";
    }

    private static String generator(final String name, final Map<String, String> props) {
        StringBuilder text = new StringBuilder("    " + name + ":\n      type: SNOWKEY_SEGMENT\n");
        if (!props.isEmpty()) {
            text.append("      props:\n");
            props.forEach((key, value) -> text.append("        ").append(key).append(": '").append(value).append("'\n"));
        }
        return text.toString();
    }
}
