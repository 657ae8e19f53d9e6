package org.snowkey.lease.store.etcd.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.apache.shardingsphere.mode.repository.cluster.ClusterPersistRepositoryConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.StoredLease;
import org.snowkey.lease.store.etcd.EtcdLeaseStore;
import org.snowkey.segment.store.RangeLogEntry;
import org.snowkey.segment.store.etcd.EtcdRangeLog;
import org.snowkey.store.etcd.EtcdClient;
import org.snowkey.store.etcd.EtcdKeyValue;
import org.snowkey.store.etcd.EtcdTestServer;

/**
 * ShardingSphere-JDBC 5.5.2 in Cluster mode on an etcd repository (the test repository of type {@code etcd},
 * {@link EtcdClusterPersistRepositoryFixture}), two instances (JVMs) from one real YAML on one real etcd server, with
 * no SnowKey props at all: {@code IMPROVED_SNOWFLAKE} leases its worker id and {@code SNOWKEY_SEGMENT} takes its
 * ranges from the mode's endpoints and namespace. The instances get distinct worker ids and disjoint dense ranges,
 * every key is unique across both, ShardingSphere's own data lies in etcd under the mode namespace, and both leases
 * are released when the instances stop.
 */
class EtcdClusterModeEndToEndTest {

    private static final String NAMESPACE = "etcd_e2e_governance";

    private static final int ROWS = 40;

    private static final String H2_URL = "jdbc:h2:mem:etcd_e2e;DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false;MODE=MySQL";

    @TempDir
    Path dir;

    @Test
    @Timeout(600)
    void twoClusterModeInstancesOnOneEtcdGetDistinctWorkerIdsAndDisjointDenseRangesWithNoSnowKeyProps() throws Exception {
        try (EtcdTestServer etcd = EtcdTestServer.startNew()) {
            String endpoints = etcd.endpoint().toString();
            Path yaml = writeYaml(endpoints);
            List<Instance> instances = new ArrayList<>();
            try {
                // One after the other: instances starting at once on an empty registry can corrupt the saved rule versions.
                for (int i = 0; i < 2; i++) {
                    Instance instance = new Instance(i, yaml);
                    instances.add(instance);
                    instance.await("STARTED");
                }
                for (Instance each : instances) {
                    each.send("GO");
                }
                for (Instance each : instances) {
                    each.await("DONE");
                }
                checkWorkerIds(instances);
                checkDenseRanges(instances);
                checkShardingSphereDataUnderTheNamespace(endpoints);
                checkTheStoreUnderTheModesNamespace(etcd, instances);
            } finally {
                instances.forEach(each -> each.process.destroyForcibly());
            }
        }
    }

    /** Each instance's snowflake keys carry one worker id, the two differ, and no key repeats. */
    private static void checkWorkerIds(final List<Instance> instances) throws IOException {
        IdLayout layout = IdLayout.defaults();
        List<Integer> workerIds = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        for (Instance each : instances) {
            List<Long> keys = each.keys("t_order");
            assertEquals(ROWS, keys.size(), "every row of instance " + each.index + " got a key");
            Set<Integer> ofInstance = new HashSet<>();
            for (long key : keys) {
                assertTrue(seen.add(key), "snowflake key " + key + " issued twice");
                ofInstance.add(layout.decode(key).workerId());
            }
            assertEquals(1, ofInstance.size(), "one worker id per instance: " + ofInstance);
            for (int i = 1; i < keys.size(); i++) {
                assertTrue(keys.get(i) > keys.get(i - 1), "keys of instance " + each.index + " increase in insert order: " + keys);
            }
            workerIds.add(ofInstance.iterator().next());
            each.workerId = ofInstance.iterator().next();
        }
        assertNotEquals(workerIds.get(0), workerIds.get(1), "two instances, two leased worker ids");
    }

    /**
     * No props: ranges of 1,000 by default, so each instance issues its rows from one range: its keys are consecutive,
     * and the two instances' ranges do not overlap.
     */
    private static void checkDenseRanges(final List<Instance> instances) throws IOException {
        Set<Long> seen = new HashSet<>();
        List<long[]> spans = new ArrayList<>();
        for (Instance each : instances) {
            List<Long> keys = each.keys("t_order_item");
            assertEquals(ROWS, keys.size(), "every row of instance " + each.index + " got a key");
            for (int i = 0; i < keys.size(); i++) {
                assertEquals(keys.get(0) + i, keys.get(i), "dense keys within instance " + each.index + ": " + keys);
                assertTrue(seen.add(keys.get(i)), "segment key " + keys.get(i) + " issued twice");
            }
            assertTrue(keys.get(0) >= 1, "segment keys start at 1 or above: " + keys.get(0));
            spans.add(new long[] {keys.get(0), keys.get(keys.size() - 1)});
        }
        long[] first = spans.get(0);
        long[] second = spans.get(1);
        assertTrue(first[1] < second[0] || second[1] < first[0], "disjoint ranges: " + first[0] + ".." + first[1] + " and " + second[0] + ".." + second[1]);
        assertEquals(0, Math.abs(first[0] - second[0]) % 1_000, "each instance starts at the beginning of a default range of 1,000: " + first[0] + ", " + second[0]);
    }

    /** ShardingSphere's metadata lies in the same etcd under the mode namespace: SnowKey shares the mode's server and namespace. */
    private static void checkShardingSphereDataUnderTheNamespace(final String endpoints) {
        EtcdClusterPersistRepositoryFixture reader = new EtcdClusterPersistRepositoryFixture();
        reader.init(new ClusterPersistRepositoryConfiguration("etcd", NAMESPACE, endpoints, new Properties()), null);
        try {
            assertTrue(reader.getChildrenKeys("/metadata").contains("sharding_db"), "ShardingSphere's metadata under " + NAMESPACE + "/metadata");
        } finally {
            reader.close();
        }
    }

    /**
     * SnowKey's records lie in the mode's etcd under the mode's namespace: each instance holds the lease of the worker id
     * its keys carry and took the range its keys lie in; stopping an instance releases its lease.
     */
    private static void checkTheStoreUnderTheModesNamespace(final EtcdTestServer etcd, final List<Instance> instances) throws Exception {
        try (EtcdClient client = new EtcdClient(etcd.settings(NAMESPACE)); EtcdLeaseStore leases = new EtcdLeaseStore(new EtcdClient(etcd.settings(NAMESPACE)))) {
            // One prefix holds both: ShardingSphere's repository prefixes its keys with the namespace's bytes, and an etcd role
            // granted on that prefix must cover SnowKey's keys too.
            Set<String> topLevel = new HashSet<>();
            for (EtcdKeyValue each : client.range(NAMESPACE + "/", 0, false, true)) {
                topLevel.add(each.key().substring(NAMESPACE.length() + 1).split("/", 2)[0]);
            }
            assertTrue(topLevel.containsAll(List.of("metadata", "snowkey")), "ShardingSphere's and SnowKey's keys under the one prefix " + NAMESPACE + "/: " + topLevel);
            EtcdRangeLog ranges = new EtcdRangeLog(client);
            assertEquals(List.of("sharding_db.t_order_item"), ranges.keys(), "one counter, of the segment table, under the mode's namespace");
            List<RangeLogEntry> logged = ranges.recent("sharding_db.t_order_item", 100);
            for (Instance each : instances) {
                StoredLease lease = leases.read("default", each.workerId).orElseThrow(() -> new AssertionError("no lease record of worker id " + each.workerId
                        + " under the namespace " + NAMESPACE));
                assertEquals(LeaseRecord.State.HELD, lease.record().state());
                assertTrue(lease.record().owner().endsWith("@" + each.process.pid()), "held by instance " + each.index + " (pid " + each.process.pid() + "): "
                        + lease.record());
                long first = each.keys("t_order_item").get(0);
                RangeLogEntry range = logged.stream().filter(entry -> entry.range().first() <= first && first <= entry.range().last()).findFirst()
                        .orElseThrow(() -> new AssertionError("segment key " + first + " lies in no logged range: " + logged));
                assertTrue(range.owner().startsWith(each.process.pid() + "@"), "instance " + each.index + " (pid " + each.process.pid() + ") took " + range);
                assertEquals(1_000, range.range().size(), "a default range of 1,000: " + range);
            }
            for (Instance each : instances) {
                each.process.getOutputStream().close();
            }
            for (Instance each : instances) {
                assertTrue(each.process.waitFor(120, TimeUnit.SECONDS), "instance " + each.index + " stops" + each.log());
                assertEquals(0, each.process.exitValue(), each.log());
                assertEquals(LeaseRecord.State.RELEASED, leases.read("default", each.workerId).orElseThrow().record().state(), "released on the way out");
            }
        }
    }

    private Path writeYaml(final String endpoints) throws IOException {
        // Written at run time: ShardingSphere does not resolve placeholders, and the port is dynamic.
        StringBuilder yaml = new StringBuilder(String.join("\n",
                "databaseName: sharding_db",
                "mode:",
                "  type: Cluster",
                "  repository:",
                "    type: etcd",
                "    props:",
                "      namespace: " + NAMESPACE,
                "      server-lists: " + endpoints,
                "dataSources:",
                "  ds:",
                "    dataSourceClassName: com.zaxxer.hikari.HikariDataSource",
                "    driverClassName: org.h2.Driver",
                "    jdbcUrl: " + H2_URL,
                "    username: sa",
                "    password: ''",
                "    maximumPoolSize: 4",
                "rules:",
                "- !SHARDING",
                "  tables:",
                ""));
        for (String table : EtcdClusterModeInstance.TABLES) {
            yaml.append("    ").append(table).append(":\n")
                    .append("      actualDataNodes: ds.").append(table).append("_${0..1}\n")
                    .append("      tableStrategy:\n")
                    .append("        standard:\n")
                    .append("          shardingColumn: id\n")
                    .append("          shardingAlgorithmName: ").append(table).append("_by_id\n")
                    .append("      keyGenerateStrategy:\n")
                    .append("        column: id\n")
                    .append("        keyGeneratorName: ").append(table).append("_keys\n");
        }
        yaml.append("  shardingAlgorithms:\n");
        for (String table : EtcdClusterModeInstance.TABLES) {
            yaml.append("    ").append(table).append("_by_id:\n")
                    .append("      type: INLINE\n")
                    .append("      props:\n")
                    .append("        algorithm-expression: ").append(table).append("_${id % 2}\n");
        }
        // No props at all: both key generators find their store through the mode.
        yaml.append("  keyGenerators:\n")
                .append("    t_order_keys:\n      type: IMPROVED_SNOWFLAKE\n")
                .append("    t_order_item_keys:\n      type: SNOWKEY_SEGMENT\n");
        Path file = dir.resolve("cluster.yaml");
        Files.writeString(file, yaml.toString());
        return file;
    }

    /** One ShardingSphere JVM and the lines it prints. */
    private final class Instance {

        private final int index;

        private final Process process;

        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

        private int workerId = -1;

        Instance(final int index, final Path yaml) throws IOException {
            this.index = index;
            String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                    "-Dsnowkey.lease.checkpoint-dir=" + dir.resolve("checkpoints-" + index),
                    "-cp", classpath, EtcdClusterModeInstance.class.getName(),
                    yaml.toString(), H2_URL, String.valueOf(ROWS), dir.resolve("keys-" + index).toString());
            builder.redirectError(dir.resolve("instance-" + index + ".log").toFile());
            process = builder.start();
            Thread reader = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = out.readLine()) != null) {
                        lines.add(line);
                    }
                } catch (final IOException ignored) {
                    // The process ended.
                }
                lines.add("(exited)");
            }, "instance-" + index + "-out");
            reader.setDaemon(true);
            reader.start();
        }

        /** Waits for a line; generous, as a ShardingSphere start on a loaded 2-core machine takes a while. */
        void await(final String expected) throws InterruptedException {
            while (true) {
                String line = lines.poll(240, TimeUnit.SECONDS);
                if (expected.equals(line)) {
                    return;
                }
                if (line == null || line.equals("(exited)")) {
                    throw new AssertionError("instance " + index + " did not print " + expected + ": " + (line == null ? "timed out" : "exited") + log());
                }
            }
        }

        void send(final String line) throws IOException {
            OutputStream in = process.getOutputStream();
            in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        List<Long> keys(final String table) throws IOException {
            return Files.readAllLines(dir.resolve("keys-" + index + "-" + table + ".txt")).stream().map(Long::parseLong).toList();
        }

        String log() {
            try {
                String text = Files.readString(dir.resolve("instance-" + index + ".log"));
                return "\n--- instance " + index + " log (tail)\n" + text.substring(Math.max(0, text.length() - 4_000));
            } catch (final IOException ex) {
                return " (no log: " + ex + ")";
            }
        }
    }
}
