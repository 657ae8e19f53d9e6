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
import java.util.UUID;

import javax.sql.DataSource;

import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;

/**
 * A ShardingSphere-JDBC 5.5 logical database over embedded H2 (one data source, logic tables {@code t_order} and
 * {@code t_order_item}, each split in two by {@code key % 2}), whose keys come from the key generator {@code segment} of
 * type {@code SNOWKEY_SEGMENT} (or the type given) with the given props. Written at run time: ShardingSphere resolves no
 * placeholders.
 */
public final class SegmentYamlFixture {

    private final String name;

    private final Path yaml;

    public SegmentYamlFixture(final Path directory, final Map<String, String> props) throws IOException, SQLException {
        this(directory, randomName(), props);
    }

    /** @param name the logic database name, which is also the name of the in-memory H2 database behind it */
    public SegmentYamlFixture(final Path directory, final String name, final Map<String, String> props) throws IOException, SQLException {
        this(directory, name, "SNOWKEY_SEGMENT", props);
    }

    /** With a key generator of another type ({@code IMPROVED_SNOWFLAKE}) filling both tables' keys. */
    public SegmentYamlFixture(final Path directory, final String name, final String keyGeneratorType, final Map<String, String> props)
            throws IOException, SQLException {
        this.name = name;
        try (Connection connection = DriverManager.getConnection(h2Url(), "sa", ""); Statement statement = connection.createStatement()) {
            for (int table = 0; table < 2; table++) {
                statement.execute("CREATE TABLE t_order_" + table + " (order_id BIGINT PRIMARY KEY, note VARCHAR(50))");
                statement.execute("CREATE TABLE t_order_item_" + table + " (item_id BIGINT PRIMARY KEY, note VARCHAR(50))");
            }
        }
        StringBuilder propsText = new StringBuilder();
        props.forEach((key, value) -> propsText.append("        ").append(key).append(": '").append(value).append("'\n"));
        String text = "databaseName: " + name + "\n"
                + "dataSources:\n"
                + "  ds:\n"
                + "    dataSourceClassName: com.zaxxer.hikari.HikariDataSource\n"
                + "    driverClassName: org.h2.Driver\n"
                + "    jdbcUrl: " + h2Url() + "\n"
                + "    username: sa\n"
                + "    password: ''\n"
                + "    maximumPoolSize: 4\n"
                + "rules:\n"
                + "- !SHARDING\n"
                + "  tables:\n"
                + table("t_order", "order_id")
                + table("t_order_item", "item_id")
                + "  shardingAlgorithms:\n"
                + algorithm("t_order", "order_id")
                + algorithm("t_order_item", "item_id")
                + "  keyGenerators:\n"
                + "    segment:\n"
                + "      type: " + keyGeneratorType + "\n"
                + (propsText.length() == 0 ? "" : "      props:\n" + propsText)
                + "props:\n"
                + "  sql-show: false\n";
        yaml = directory.resolve(name + ".yaml");
        Files.writeString(yaml, text);
    }

    /** A database name no other fixture of this JVM uses. */
    public static String randomName() {
        return "seg_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    private String h2Url() {
        return "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false;MODE=MySQL";
    }

    private static String table(final String logic, final String keyColumn) {
        return "    " + logic + ":\n"
                + "      actualDataNodes: ds." + logic + "_${0..1}\n"
                + "      tableStrategy:\n"
                + "        standard:\n"
                + "          shardingColumn: " + keyColumn + "\n"
                + "          shardingAlgorithmName: " + logic + "_by_key\n"
                + "      keyGenerateStrategy:\n"
                + "        column: " + keyColumn + "\n"
                + "        keyGeneratorName: segment\n";
    }

    private static String algorithm(final String logic, final String keyColumn) {
        return "    " + logic + "_by_key:\n"
                + "      type: INLINE\n"
                + "      props:\n"
                + "        algorithm-expression: " + logic + "_${" + keyColumn + " % 2}\n";
    }

    public Path yaml() {
        return yaml;
    }

    /** The logic database name; the default sequence key of a table is {@code <database>.<table>}. */
    public String databaseName() {
        return name;
    }

    /** Runs a statement on the physical H2 database, beside ShardingSphere (rows that were there before SnowKey). */
    public void executePhysical(final String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(h2Url(), "sa", ""); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** The keys of one physical table (e.g. {@code t_order_1}), read beside ShardingSphere. */
    public List<Long> physicalKeys(final String table, final String keyColumn) throws SQLException {
        List<Long> result = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(h2Url(), "sa", ""); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT " + keyColumn + " FROM " + table)) {
            while (rows.next()) {
                result.add(rows.getLong(1));
            }
        }
        return result;
    }

    /**
     * The keys of a logic table in the order the rows were inserted, for rows whose note is their insert number (a
     * whole number): read back through ShardingSphere, sorted by that number.
     */
    public static List<Long> keysInInsertOrder(final DataSource dataSource, final String logicTable, final String keyColumn) throws SQLException {
        java.util.TreeMap<Integer, Long> byInsert = new java.util.TreeMap<>();
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT " + keyColumn + ", note FROM " + logicTable)) {
            while (rows.next()) {
                if (byInsert.put(Integer.parseInt(rows.getString(2)), rows.getLong(1)) != null) {
                    throw new IllegalStateException("insert number " + rows.getString(2) + " twice in " + logicTable);
                }
            }
        }
        return new ArrayList<>(byInsert.values());
    }

    /** A data source of its own, which the test closes (ShardingSphere then releases the context's allocators). */
    public DataSource open() throws SQLException, IOException {
        return YamlShardingSphereDataSourceFactory.createDataSource(yaml.toFile());
    }

    /** Every key of a logic table, read back through ShardingSphere. */
    public static List<Long> keys(final DataSource dataSource, final String logicTable, final String keyColumn) throws SQLException {
        List<Long> result = new ArrayList<>();
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT " + keyColumn + " FROM " + logicTable)) {
            while (rows.next()) {
                result.add(rows.getLong(1));
            }
        }
        return result;
    }
}
