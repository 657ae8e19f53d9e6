package org.snowkey.keygen.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A sharded logical database over embedded H2 in the YAML every ShardingSphere line from 5.1 to 5.4 reads: two
 * data sources x two tables, logic tables {@code t_order} ({@code order_id}) and {@code t_order_item}
 * ({@code item_id}), sharded by {@code user_id % 2} and by key {@code % 2}. Each table names its key generator;
 * the YAML is written at run time because ShardingSphere does not resolve placeholders in it.
 */
public final class LineFixture {

    public static final String ORDER = "t_order";

    public static final String ITEM = "t_order_item";

    private final String name = "ss_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    private final String databaseNameKey;

    private final Map<String, String> generatorByTable = new LinkedHashMap<>();

    private final Map<String, Map<String, String>> keyGenerators = new LinkedHashMap<>();

    private String modeBlock = "";

    /** @param databaseNameKey {@code schemaName} on 5.1, {@code databaseName} from 5.2 on */
    public LineFixture(final String databaseNameKey) throws SQLException {
        this.databaseNameKey = databaseNameKey;
        for (int ds = 0; ds < 2; ds++) {
            try (Connection connection = DriverManager.getConnection(h2Url(ds), "sa", "");
                 Statement statement = connection.createStatement()) {
                for (int table = 0; table < 2; table++) {
                    statement.execute("CREATE TABLE t_order_" + table + " (order_id BIGINT PRIMARY KEY, user_id INT NOT NULL, note VARCHAR(50))");
                    statement.execute("CREATE TABLE t_order_item_" + table + " (item_id BIGINT PRIMARY KEY, user_id INT NOT NULL, note VARCHAR(50))");
                }
            }
        }
    }

    /** Declares a key generator of type {@code type} with these props. */
    public LineFixture keyGenerator(final String generatorName, final String type, final Map<String, String> props) {
        Map<String, String> withType = new LinkedHashMap<>();
        withType.put("type", type);
        withType.putAll(props);
        keyGenerators.put(generatorName, withType);
        return this;
    }

    /** Lets a logic table take its keys from that key generator. */
    public LineFixture table(final String logicTable, final String generatorName) {
        generatorByTable.put(logicTable, generatorName);
        return this;
    }

    /** A {@code mode:} block (Cluster mode), indented as in the file. */
    public LineFixture mode(final String block) {
        modeBlock = block;
        return this;
    }

    /** Writes the YAML into {@code directory}. */
    public Path write(final Path directory) throws IOException {
        StringBuilder text = new StringBuilder();
        text.append(databaseNameKey).append(": ").append(name).append('\n').append(modeBlock);
        text.append("dataSources:\n").append(dataSource(0)).append(dataSource(1));
        text.append("rules:\n- !SHARDING\n  tables:\n");
        generatorByTable.forEach((table, generator) -> text.append(tableRule(table, keyColumn(table), generator)));
        text.append("  shardingAlgorithms:\n")
                .append("    by_user:\n      type: INLINE\n      props:\n        algorithm-expression: ds_${user_id % 2}\n");
        generatorByTable.keySet().forEach(table -> text.append("    ").append(table).append("_by_id:\n      type: INLINE\n      props:\n")
                .append("        algorithm-expression: ").append(table).append("_${").append(keyColumn(table)).append(" % 2}\n"));
        text.append("  keyGenerators:\n");
        keyGenerators.forEach((generator, props) -> {
            text.append("    ").append(generator).append(":\n      type: ").append(props.get("type")).append('\n');
            if (props.size() > 1) {
                text.append("      props:\n");
                props.forEach((key, value) -> {
                    if (!"type".equals(key)) {
                        text.append("        ").append(key).append(": '").append(value).append("'\n");
                    }
                });
            }
        });
        text.append("props:\n  sql-show: false\n");
        Path yaml = directory.resolve(name + ".yaml");
        Files.writeString(yaml, text.toString());
        return yaml;
    }

    public static String keyColumn(final String logicTable) {
        return ORDER.equals(logicTable) ? "order_id" : "item_id";
    }

    /** The H2 URL of physical data source {@code ds} (0 or 1). */
    public String h2Url(final int ds) {
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

    private static String tableRule(final String logic, final String keyColumn, final String generator) {
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
                + "        keyGeneratorName: " + generator + "\n";
    }

    /** All keys of a logic table, read from the physical tables directly (not through ShardingSphere). */
    public List<Long> keys(final String logicTable) throws SQLException {
        List<Long> result = new ArrayList<>();
        for (int ds = 0; ds < 2; ds++) {
            for (int table = 0; table < 2; table++) {
                result.addAll(physicalKeys(ds, logicTable + "_" + table, keyColumn(logicTable)));
            }
        }
        return result;
    }

    /** The keys in one physical table. */
    public List<Long> physicalKeys(final int ds, final String physicalTable, final String keyColumn) throws SQLException {
        List<Long> result = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(h2Url(ds), "sa", "");
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT " + keyColumn + " FROM " + physicalTable)) {
            while (rows.next()) {
                result.add(rows.getLong(1));
            }
        }
        return result;
    }
}
