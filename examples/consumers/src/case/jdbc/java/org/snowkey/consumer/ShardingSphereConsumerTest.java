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
 * JDBC lease table in an H2 file, a ZooKeeper server or an etcd server started here), which the lease store holds.
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
        EtcdProcess etcd = "etcd".equals(lease) ? EtcdProcess.start(work.resolve("etcd")) : null;
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
                case "etcd":
                    props.put("lease-registry", "etcd");
                    props.put("etcd-endpoints", etcd.endpoint());
                    props.put("lease-pool", POOL);
                    break;
                default:
                    throw new IllegalArgumentException("case.lease = '" + lease + "' is none of static, jdbc, zookeeper, etcd");
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
                    case "etcd":
                        String held = etcd.heldRecordOf(workerId);
                        assertTrue(held != null, "etcd holds a HELD record for worker id " + workerId + ": " + etcd.dump());
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
            if (etcd != null) {
                etcd.close();
            }
        }
        String store = System.getProperty("case.store", "");
        if (store.equals("snowkey-lease-etcd")) {
            assertBringsOnlySnowKey(store);
        }
    }

    /**
     * The store's whole subtree in the verbose dependency tree (nodes Maven omitted as duplicates or conflicts
     * included) holds SnowKey artifacts only: it asks for no third-party library at all, so no version the host
     * ShardingSphere line resolves can move.
     */
    private static void assertBringsOnlySnowKey(final String store) throws Exception {
        List<String> lines = Files.readAllLines(Paths.get(System.getProperty("case.tree")), StandardCharsets.UTF_8);
        int depth = -1;
        List<String> subtree = new ArrayList<>();
        for (String each : lines) {
            int start = 0;
            while (start < each.length() && !Character.isLetterOrDigit(each.charAt(start)) && each.charAt(start) != '(') {
                start++;
            }
            if (depth >= 0) {
                if (start <= depth) {
                    break;
                }
                subtree.add(each.substring(start));
            } else if (each.contains("org.snowkey:" + store + ":jar:")) {
                depth = start;
            }
        }
        assertTrue(depth >= 0, store + " is in the dependency tree: " + lines);
        for (String each : subtree) {
            String coordinates = each.startsWith("(") ? each.substring(1) : each;
            assertTrue(coordinates.startsWith("org.snowkey:"), store + " brings only SnowKey artifacts, not " + each + "; its subtree: " + subtree);
        }
        System.out.printf("consumer case: %s brings %s%n", store, subtree);
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

    /**
     * A real etcd server ({@code /usr/bin/etcd}, or {@code SNOWKEY_ETCD}) on free loopback ports; without one the
     * case is skipped, or fails under {@code CI=true}. Read through etcd's v3 JSON gateway with the JDK's HttpClient.
     */
    private static final class EtcdProcess implements AutoCloseable {

        private final Process process;

        private final String endpoint;

        private final java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1).build();

        private EtcdProcess(final Process process, final String endpoint) {
            this.process = process;
            this.endpoint = endpoint;
        }

        static EtcdProcess start(final Path dir) throws Exception {
            Path binary = Paths.get(System.getenv().getOrDefault("SNOWKEY_ETCD", "/usr/bin/etcd"));
            if (!Files.isExecutable(binary)) {
                String reason = "no etcd binary at " + binary + " (install Debian's etcd-server, or point SNOWKEY_ETCD at an etcd 3.4+ binary)";
                org.junit.jupiter.api.Assertions.assertFalse("true".equalsIgnoreCase(System.getenv("CI")), "CI=true and " + reason);
                org.junit.jupiter.api.Assumptions.abort(reason);
            }
            Files.createDirectories(dir);
            int clientPort;
            int peerPort;
            try (java.net.ServerSocket client = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
                 java.net.ServerSocket peer = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                clientPort = client.getLocalPort();
                peerPort = peer.getLocalPort();
            }
            String endpoint = "http://127.0.0.1:" + clientPort;
            String peer = "http://127.0.0.1:" + peerPort;
            Process process = new ProcessBuilder(binary.toString(), "--name", "consumer", "--data-dir", dir.resolve("data").toString(),
                    "--listen-client-urls", endpoint, "--advertise-client-urls", endpoint, "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                    "--initial-cluster", "consumer=" + peer, "--log-level", "warn").redirectErrorStream(true)
                    .redirectOutput(dir.resolve("etcd.log").toFile()).start();
            EtcdProcess etcd = new EtcdProcess(process, endpoint);
            // Ready once a linearizable read is answered (it needs a leader); polled, no fixed sleep.
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (true) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("etcd exited at start-up: " + Files.readString(dir.resolve("etcd.log")));
                }
                try {
                    etcd.all();
                    return etcd;
                } catch (final java.io.IOException notYet) {
                    if (System.nanoTime() > deadline) {
                        etcd.close();
                        throw new IllegalStateException("etcd did not answer within 60 s: " + Files.readString(dir.resolve("etcd.log")));
                    }
                    Thread.sleep(50);
                }
            }
        }

        String endpoint() {
            return endpoint;
        }

        /** Every key and value in the server, decoded ({@code key=value} per entry). */
        List<String> all() throws java.io.IOException, InterruptedException {
            // key "\0" with range_end "\0": the whole key space.
            java.net.http.HttpResponse<String> response = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(endpoint + "/v3/kv/range"))
                    .timeout(java.time.Duration.ofSeconds(2)).POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"key\":\"AA==\",\"range_end\":\"AA==\"}")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new java.io.IOException("etcd answered " + response.statusCode() + " " + response.body());
            }
            List<String> entries = new ArrayList<>();
            java.util.regex.Matcher kv = java.util.regex.Pattern.compile("\"key\":\"([^\"]*)\"[^}]*?\"value\":\"([^\"]*)\"").matcher(response.body());
            while (kv.find()) {
                entries.add(decode(kv.group(1)) + "=" + decode(kv.group(2)));
            }
            return entries;
        }

        /** The record of a worker id that the store keeps as held, or null. */
        String heldRecordOf(final int workerId) throws Exception {
            for (String each : all()) {
                String key = each.substring(0, each.indexOf('='));
                if (key.contains(POOL) && key.endsWith("/" + workerId) && each.contains("\"state\":\"HELD\"")) {
                    return each;
                }
            }
            return null;
        }

        String dump() throws Exception {
            return String.join("\n", all());
        }

        private static String decode(final String base64) {
            return new String(java.util.Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
        }

        @Override
        public void close() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS);
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
