package org.snowkey.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.layout.IdLayout;

/**
 * What a user's application does with SnowKey, compiled and run in a project that has only the dependencies its
 * pom declares (no parent, no dependency management): ShardingSphere-JDBC starts from a YAML file, rows go in
 * without keys, and every key decodes to the worker id of the configured source (a fixed {@code worker-id}, a
 * JDBC lease table in an H2 file, or a ZooKeeper server started here), which the lease store holds.
 */
class ShardingSphereConsumerTest {

    private static final String POOL = "orders";

    private final String line = System.getProperty("case.line");

    private final String lease = System.getProperty("case.lease");

    private final Path work = Paths.get("target", "case-" + UUID.randomUUID().toString().substring(0, 8)).toAbsolutePath();

    @Test
    void keysComeFromSnowKeyWithTheWorkerIdOfTheLease() throws Exception {
        Files.createDirectories(work);
        createPhysicalTables();
        AutoCloseable zooKeeper = "zookeeper".equals(lease) ? startZooKeeper() : null;
        try {
            Map<String, String> props = new LinkedHashMap<>();
            switch (lease) {
                case "static":
                    props.put("worker-id", "7");
                    break;
                case "jdbc":
                    props.put("lease-registry", "jdbc");
                    props.put("jdbc-url", leaseUrl());
                    props.put("jdbc-username", "sa");
                    props.put("lease-pool", POOL);
                    break;
                case "zookeeper":
                    props.put("lease-registry", "zookeeper");
                    props.put("zookeeper-server-lists", (String) zooKeeper.getClass().getMethod("getConnectString").invoke(zooKeeper));
                    props.put("lease-pool", POOL);
                    break;
                default:
                    throw new IllegalArgumentException("case.lease = '" + lease + "' is none of static, jdbc, zookeeper");
            }
            DataSource dataSource = createDataSource(writeYaml(props));
            try {
                try (Connection connection = dataSource.getConnection();
                     PreparedStatement insert = connection.prepareStatement("INSERT INTO t_order (user_id, note) VALUES (?, ?)")) {
                    for (int i = 0; i < 40; i++) {
                        insert.setInt(1, i);
                        insert.setString(2, "row " + i);
                        insert.executeUpdate();
                    }
                }
                List<Long> keys = physicalKeys();
                assertEquals(40, keys.size(), "rows in the physical tables");
                assertEquals(40, new HashSet<>(keys).size(), "distinct keys");
                Set<Integer> workerIds = new HashSet<>();
                keys.forEach(key -> workerIds.add(IdLayout.defaults().decode(key).workerId()));
                assertEquals(1, workerIds.size(), "one worker id in every key: " + workerIds);
                int workerId = workerIds.iterator().next();
                switch (lease) {
                    case "static":
                        assertEquals(7, workerId, "the configured worker-id (ShardingSphere's own SNOWFLAKE would not put 7 there)");
                        break;
                    case "jdbc":
                        assertEquals(List.of(workerId), heldInLeaseTable(), "the worker id the lease table holds");
                        break;
                    default:
                        String record = leaseNode(zooKeeper, workerId);
                        assertTrue(record.contains("\"state\":\"HELD\""), record);
                }
                System.out.printf("consumer case %s, lease %s: 40 keys, worker id %d%n", line, lease, workerId);
            } finally {
                if (dataSource instanceof AutoCloseable) {
                    ((AutoCloseable) dataSource).close();
                }
            }
        } finally {
            if (zooKeeper != null) {
                zooKeeper.close();
            }
        }
    }

    /** YamlShardingSphereDataSourceFactory has the same name and method on every line from 5.1 to 5.5. */
    private static DataSource createDataSource(final File yaml) throws Exception {
        Class<?> factory = Class.forName("org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory");
        Method create = factory.getMethod("createDataSource", File.class);
        return (DataSource) create.invoke(null, yaml);
    }

    private static AutoCloseable startZooKeeper() throws Exception {
        Class<?> server = Class.forName("org.apache.curator.test.TestingServer");
        return (AutoCloseable) server.getConstructor().newInstance();
    }

    /**
     * The lease node's JSON, read with the Curator the application declares (or its ShardingSphere brings). Through
     * reflection, because the cases without ZooKeeper compile this class without Curator.
     */
    private static String leaseNode(final AutoCloseable zooKeeper, final int workerId) throws Exception {
        String connect = (String) zooKeeper.getClass().getMethod("getConnectString").invoke(zooKeeper);
        Class<?> retryPolicy = Class.forName("org.apache.curator.RetryPolicy");
        Object retry = Class.forName("org.apache.curator.retry.RetryOneTime").getConstructor(int.class).newInstance(100);
        Object client = Class.forName("org.apache.curator.framework.CuratorFrameworkFactory").getMethod("newClient", String.class, retryPolicy)
                .invoke(null, connect, retry);
        Class<?> framework = Class.forName("org.apache.curator.framework.CuratorFramework");
        framework.getMethod("start").invoke(client);
        try {
            Object getData = framework.getMethod("getData").invoke(client);
            Object data = Class.forName("org.apache.curator.framework.api.Pathable").getMethod("forPath", String.class)
                    .invoke(getData, "/snowkey/snowkey/" + POOL + "/workers/" + workerId);
            return new String((byte[]) data, StandardCharsets.UTF_8);
        } finally {
            framework.getMethod("close").invoke(client);
        }
    }

    private String dataSourceUrl(final int ds) {
        return "jdbc:h2:file:" + work.resolve("ds_" + ds) + ";DATABASE_TO_UPPER=false;MODE=MySQL";
    }

    private String leaseUrl() {
        return "jdbc:h2:file:" + work.resolve("lease");
    }

    private void createPhysicalTables() throws Exception {
        for (int ds = 0; ds < 2; ds++) {
            try (Connection connection = DriverManager.getConnection(dataSourceUrl(ds), "sa", "");
                 Statement statement = connection.createStatement()) {
                for (int table = 0; table < 2; table++) {
                    statement.execute("CREATE TABLE t_order_" + table + " (order_id BIGINT PRIMARY KEY, user_id INT NOT NULL, note VARCHAR(50))");
                }
            }
        }
    }

    private File writeYaml(final Map<String, String> props) throws Exception {
        // 5.1 names the logical database schemaName, later lines databaseName.
        StringBuilder yaml = new StringBuilder(line.startsWith("5.1.") ? "schemaName" : "databaseName").append(": consumer\n");
        yaml.append("dataSources:\n");
        for (int ds = 0; ds < 2; ds++) {
            yaml.append("  ds_").append(ds).append(":\n")
                    .append("    dataSourceClassName: com.zaxxer.hikari.HikariDataSource\n")
                    .append("    driverClassName: org.h2.Driver\n")
                    .append("    jdbcUrl: ").append(dataSourceUrl(ds)).append('\n')
                    .append("    username: sa\n")
                    .append("    password: ''\n");
        }
        yaml.append("rules:\n- !SHARDING\n  tables:\n    t_order:\n      actualDataNodes: ds_${0..1}.t_order_${0..1}\n")
                .append("      databaseStrategy:\n        standard:\n          shardingColumn: user_id\n          shardingAlgorithmName: by_user\n")
                .append("      tableStrategy:\n        standard:\n          shardingColumn: order_id\n          shardingAlgorithmName: by_id\n")
                .append("      keyGenerateStrategy:\n        column: order_id\n        keyGeneratorName: snowkey\n")
                .append("  shardingAlgorithms:\n")
                .append("    by_user:\n      type: INLINE\n      props:\n        algorithm-expression: ds_${user_id % 2}\n")
                .append("    by_id:\n      type: INLINE\n      props:\n        algorithm-expression: t_order_${order_id % 2}\n")
                .append("  keyGenerators:\n    snowkey:\n      type: IMPROVED_SNOWFLAKE\n      props:\n");
        props.forEach((key, value) -> yaml.append("        ").append(key).append(": '").append(value).append("'\n"));
        Path file = work.resolve("sharding.yaml");
        Files.write(file, yaml.toString().getBytes(StandardCharsets.UTF_8));
        return file.toFile();
    }

    private List<Long> physicalKeys() throws Exception {
        List<Long> keys = new ArrayList<>();
        for (int ds = 0; ds < 2; ds++) {
            try (Connection connection = DriverManager.getConnection(dataSourceUrl(ds), "sa", "");
                 Statement statement = connection.createStatement()) {
                for (int table = 0; table < 2; table++) {
                    try (ResultSet rows = statement.executeQuery("SELECT order_id FROM t_order_" + table)) {
                        while (rows.next()) {
                            keys.add(rows.getLong(1));
                        }
                    }
                }
            }
        }
        return keys;
    }

    private List<Integer> heldInLeaseTable() throws Exception {
        List<Integer> held = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(leaseUrl(), "sa", "");
             PreparedStatement select = connection.prepareStatement("SELECT worker_id FROM snowkey_worker_lease WHERE pool = ? AND state = 'HELD'")) {
            select.setString(1, POOL);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    held.add(rows.getInt(1));
                }
            }
        }
        return held;
    }
}
