package org.snowkey.keygen.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

/**
 * A ShardingSphere-JDBC logical database over embedded H2, opened through the real driver and a YAML file:
 * two data sources x two tables, logic tables {@code t_order} and {@code t_order_item}, both with keys filled by
 * the key generator {@code snowkey}. The YAML is written at run time because ShardingSphere does not resolve
 * placeholders in it.
 */
public final class ShardingSphereFixture {

    private final String name = "ss_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    private final Path yaml;

    public ShardingSphereFixture(final Path directory, final Map<String, String> keyGeneratorProps) throws IOException, SQLException {
        this(directory, "IMPROVED_SNOWFLAKE", keyGeneratorProps);
    }

    /** With a key generator of another type ({@code SNOWKEY_SEGMENT}). */
    public ShardingSphereFixture(final Path directory, final String keyGeneratorType, final Map<String, String> keyGeneratorProps) throws IOException, SQLException {
        this(directory, Map.of("snowkey", keyGeneratorType), Map.of("snowkey", keyGeneratorProps), Map.of("t_order", "snowkey", "t_order_item", "snowkey"));
    }

    /**
     * With several key generators: their types and props by name, and the key generator each logic table names.
     */
    public ShardingSphereFixture(final Path directory, final Map<String, String> keyGeneratorTypes, final Map<String, Map<String, String>> keyGeneratorProps,
                                 final Map<String, String> keyGeneratorOfTable) throws IOException, SQLException {
        for (int ds = 0; ds < 2; ds++) {
            try (Connection connection = DriverManager.getConnection(h2Url(ds), "sa", "");
                 Statement statement = connection.createStatement()) {
                for (int table = 0; table < 2; table++) {
                    statement.execute("CREATE TABLE t_order_" + table + " (order_id BIGINT PRIMARY KEY, user_id INT NOT NULL, note VARCHAR(50))");
                    statement.execute("CREATE TABLE t_order_item_" + table + " (item_id BIGINT PRIMARY KEY, user_id INT NOT NULL, note VARCHAR(50))");
                }
            }
        }
        StringBuilder keyGenerators = new StringBuilder();
        new java.util.TreeMap<>(keyGeneratorTypes).forEach((generator, type) -> {
            StringBuilder props = new StringBuilder();
            keyGeneratorProps.getOrDefault(generator, Map.of())
                    .forEach((key, value) -> props.append("        ").append(key).append(": '").append(value).append("'\n"));
            keyGenerators.append("    ").append(generator).append(":\n")
                    .append("      type: ").append(type).append("\n")
                    .append(props.length() == 0 ? "" : "      props:\n" + props);
        });
        String text = "databaseName: " + name + "\n"
                + "dataSources:\n"
                + dataSource(0) + dataSource(1)
                + "rules:\n"
                + "- !SHARDING\n"
                + "  tables:\n"
                + table("t_order", "order_id", keyGeneratorOfTable.get("t_order"))
                + table("t_order_item", "item_id", keyGeneratorOfTable.get("t_order_item"))
                + "  shardingAlgorithms:\n"
                + "    by_user:\n"
                + "      type: INLINE\n"
                + "      props:\n"
                + "        algorithm-expression: ds_${user_id % 2}\n"
                + "    t_order_by_id:\n"
                + "      type: INLINE\n"
                + "      props:\n"
                + "        algorithm-expression: t_order_${order_id % 2}\n"
                + "    t_order_item_by_id:\n"
                + "      type: INLINE\n"
                + "      props:\n"
                + "        algorithm-expression: t_order_item_${item_id % 2}\n"
                + "  keyGenerators:\n"
                + keyGenerators
                + "props:\n"
                + "  sql-show: false\n";
        yaml = directory.resolve(name + ".yaml");
        Files.writeString(yaml, text);
    }

    private String h2Url(final int ds) {
        return "jdbc:h2:mem:" + name + "_ds_" + ds + ";DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false;MODE=MySQL";
    }

    private String dataSource(final int ds) {
        return "  ds_" + ds + ":\n"
                + "    dataSourceClassName: com.zaxxer.hikari.HikariDataSource\n"
                + "    driverClassName: org.h2.Driver\n"
                + "    jdbcUrl: " + h2Url(ds) + "\n"
                + "    username: sa\n"
                + "    password: ''\n"
                + "    maximumPoolSize: 4\n";
    }

    private static String table(final String logic, final String keyColumn, final String keyGenerator) {
        return "    " + logic + ":\n"
                + "      actualDataNodes: ds_${0..1}." + logic + "_${0..1}\n"
                + "      databaseStrategy:\n"
                + "        standard:\n"
                + "          shardingColumn: user_id\n"
                + "          shardingAlgorithmName: by_user\n"
                + "      tableStrategy:\n"
                + "        standard:\n"
                + "          shardingColumn: " + keyColumn + "\n"
                + "          shardingAlgorithmName: " + logic + "_by_id\n"
                + "      keyGenerateStrategy:\n"
                + "        column: " + keyColumn + "\n"
                + "        keyGeneratorName: " + keyGenerator + "\n";
    }

    /** A data source of its own (not the driver's cached one), so that a test can close it. */
    public javax.sql.DataSource openDataSource() throws SQLException, IOException {
        return org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory.createDataSource(yaml.toFile());
    }

    /** A connection through the ShardingSphere driver. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:shardingsphere:absolutepath:" + yaml.toAbsolutePath());
    }

    /** All keys of a logic table, read back through ShardingSphere. */
    public List<Long> keys(final String logicTable, final String keyColumn) throws SQLException {
        List<Long> result = new ArrayList<>();
        try (Connection connection = connect();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT " + keyColumn + " FROM " + logicTable)) {
            while (rows.next()) {
                result.add(rows.getLong(1));
            }
        }
        return result;
    }

    /** Rows in one physical table, read from H2 directly. */
    public int physicalRows(final int ds, final String table) throws SQLException {
        try (Connection connection = DriverManager.getConnection(h2Url(ds), "sa", "");
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rows.next();
            return rows.getInt(1);
        }
    }

    /**
     * Runs {@code insertSql} (two parameters: {@code user_id}, {@code note}) {@code count} times on one connection of
     * {@code dataSource}, leaving the key to ShardingSphere, and returns the keys it generated, in order.
     */
    public static List<Long> insertRows(final DataSource dataSource, final String insertSql, final int count) throws SQLException {
        List<Long> result = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement(insertSql, Statement.RETURN_GENERATED_KEYS)) {
            for (int i = 0; i < count; i++) {
                result.add(insertRow(insert, i));
            }
        }
        return result;
    }

    /** One execution of a prepared {@code (user_id, note)} insert; the key ShardingSphere generated for it. */
    public static long insertRow(final PreparedStatement insert, final int userId) throws SQLException {
        insert.setInt(1, userId);
        insert.setString(2, "row " + userId);
        insert.executeUpdate();
        try (ResultSet keys = insert.getGeneratedKeys()) {
            if (!keys.next()) {
                throw new AssertionError("ShardingSphere returned no generated key for " + insert);
            }
            return keys.getLong(1);
        }
    }
}
