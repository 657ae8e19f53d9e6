package org.snowkey.lease.store.zookeeper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.StoredLease;
import org.snowkey.lease.store.zookeeper.ZooKeeperLeaseStore;
import org.snowkey.store.zookeeper.ZooKeeperStoreSettings;

/**
 * ShardingSphere 5.5.2 in Cluster mode, two instances (JVMs) at once on one ZooKeeper: {@code IMPROVED_SNOWFLAKE}
 * with no props leases its worker id from the mode's ensemble and namespace. Every key of an instance carries the
 * worker id that the instance holds under {@code /<namespace>/snowkey/default/workers}, the two differ, and both
 * are released when the instances stop.
 */
class ClusterModeEndToEndTest {

    private static final String NAMESPACE = "e2e_governance";

    private static final int ROWS = 40;

    @TempDir
    Path dir;

    @Test
    void twoClusterModeInstancesFillKeysWithWorkerIdsLeasedFromTheModesEnsembleAndNamespace() throws Exception {
        try (TestingServer server = new TestingServer(true)) {
            Path yaml = writeYaml(server.getConnectString());
            List<Process> instances = new ArrayList<>();
            List<CompletableFuture<String>> ready = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    Process process = start(yaml, i);
                    instances.add(process);
                    ready.add(awaitReady(process, i));
                }
                for (int i = 0; i < 2; i++) {
                    String line = ready.get(i).get(180, TimeUnit.SECONDS);
                    assertTrue(line.startsWith("READY"), "instance " + i + " did not start: " + line + log(i));
                }
                IdLayout layout = IdLayout.defaults();
                List<Integer> workerIds = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    List<String> keys = Files.readAllLines(dir.resolve("keys-" + i + ".txt"));
                    assertEquals(ROWS, keys.size(), "every row got a key");
                    Set<Integer> ofInstance = new HashSet<>();
                    keys.forEach(each -> ofInstance.add(layout.decode(Long.parseLong(each)).workerId()));
                    assertEquals(1, ofInstance.size(), "one worker id per instance: " + ofInstance);
                    workerIds.add(ofInstance.iterator().next());
                }
                assertNotEquals(workerIds.get(0), workerIds.get(1), "two instances, two leased worker ids");
                try (ZooKeeperLeaseStore store = new ZooKeeperLeaseStore(new ZooKeeperStoreSettings(server.getConnectString(), NAMESPACE, null, 5_000))) {
                    for (int i = 0; i < 2; i++) {
                        StoredLease lease = store.read("default", workerIds.get(i)).orElseThrow(
                                () -> new AssertionError("no lease node under /" + NAMESPACE + "/snowkey/default/workers"));
                        assertEquals(LeaseRecord.State.HELD, lease.record().state());
                        assertTrue(lease.record().owner().endsWith("@" + instances.get(i).pid()),
                                "held by instance " + i + " (pid " + instances.get(i).pid() + "): " + lease.record());
                    }
                    // Stop both: each releases its lease on the way out.
                    for (Process each : instances) {
                        each.getOutputStream().close();
                    }
                    for (int i = 0; i < 2; i++) {
                        assertTrue(instances.get(i).waitFor(60, TimeUnit.SECONDS), "instance " + i + " stops" + log(i));
                        assertEquals(LeaseRecord.State.RELEASED, store.read("default", workerIds.get(i)).orElseThrow().record().state());
                    }
                }
            } finally {
                instances.forEach(Process::destroyForcibly);
            }
        }
    }

    private Path writeYaml(final String connectString) throws IOException {
        // Written at run time: ShardingSphere does not resolve placeholders, and the port is dynamic.
        String yaml = String.join("\n",
                "databaseName: sharding_db",
                "mode:",
                "  type: Cluster",
                "  repository:",
                "    type: ZooKeeper",
                "    props:",
                "      namespace: " + NAMESPACE,
                "      server-lists: " + connectString,
                "dataSources:",
                "  ds_0:",
                "    dataSourceClassName: com.zaxxer.hikari.HikariDataSource",
                "    driverClassName: org.h2.Driver",
                "    jdbcUrl: " + h2Url(),
                "    username: sa",
                "    password:",
                "rules:",
                "- !SHARDING",
                "  tables:",
                "    t_order:",
                "      actualDataNodes: ds_0.t_order_${0..1}",
                "      tableStrategy:",
                "        standard:",
                "          shardingColumn: order_id",
                "          shardingAlgorithmName: t_order_mod",
                "      keyGenerateStrategy:",
                "        column: order_id",
                "        keyGeneratorName: snowkey",
                "  shardingAlgorithms:",
                "    t_order_mod:",
                "      type: INLINE",
                "      props:",
                "        algorithm-expression: t_order_${order_id % 2}",
                "  keyGenerators:",
                "    snowkey:",
                "      type: IMPROVED_SNOWFLAKE",
                "");
        Path file = dir.resolve("cluster.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    private static String h2Url() {
        return "jdbc:h2:mem:e2e_ds;DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false;MODE=MySQL";
    }

    private Process start(final Path yaml, final int index) throws IOException {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Dsnowkey.lease.checkpoint-dir=" + dir.resolve("checkpoints-" + index),
                "-cp", classpath, ClusterModeInstance.class.getName(),
                yaml.toString(), h2Url(), String.valueOf(ROWS), dir.resolve("keys-" + index + ".txt").toString());
        builder.redirectError(dir.resolve("instance-" + index + ".log").toFile());
        return builder.start();
    }

    /** The first line starting with READY, or the end of output. */
    private static CompletableFuture<String> awaitReady(final Process process, final int index) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                String line;
                while ((line = reader.readLine()) != null) {
                    if (line.startsWith("READY")) {
                        return line;
                    }
                }
                return "(instance " + index + " exited with " + process.waitFor() + ")";
            } catch (final IOException | InterruptedException ex) {
                return "(" + ex + ")";
            }
        });
    }

    private String log(final int index) {
        try {
            String text = Files.readString(dir.resolve("instance-" + index + ".log"));
            return "\n--- instance " + index + " log (tail)\n" + text.substring(Math.max(0, text.length() - 4_000));
        } catch (final IOException ex) {
            return " (no log: " + ex + ")";
        }
    }
}
