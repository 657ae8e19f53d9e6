package org.snowkey.segment.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.segment.store.RangeLogEntry;
import org.snowkey.segment.store.RangeReconciliation;
import org.snowkey.segment.store.zookeeper.ZooKeeperRangeLog;
import org.snowkey.store.zookeeper.DigestNodeAcls;

/**
 * ShardingSphere 5.5.2 in Cluster mode on one ZooKeeper server, two instances (JVMs) inserting at once:
 * {@code SNOWKEY_SEGMENT} takes its ranges from the mode's ensemble and namespace with no allocator props at all
 * ({@code t_order}: no props; {@code t_order_item}: only small steps, so that the instances' ranges interleave, and a
 * long fetch timeout). Keys
 * are distinct across the instances and increase within each, and the range log under
 * {@code /<namespace>/snowkey/segment-log} has no overlap, no gap, and holds every key in a range of the instance that
 * issued it. The mode's {@code digest} reaches SnowKey as well: the segment nodes carry its ACL.
 */
class SegmentClusterModeEndToEndTest {

    private static final String NAMESPACE = "seg_governance";

    private static final int ROUNDS = 30;

    private static final String DIGEST = "snowkey:Cluster-Digest-1618";

    private static final String H2_URL = "jdbc:h2:mem:seg_cluster;DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false;MODE=MySQL";

    @TempDir
    Path dir;

    @Test
    @Timeout(600)
    void twoClusterModeInstancesTakeDistinctIncreasingKeysFromTheModesZooKeeperWithNoAllocatorProps() throws Exception {
        try (TestingServer server = new TestingServer(true)) {
            // The mode's digest reaches SnowKey too: its segment nodes then carry the digest ACL, checked before first use.
            String mode = "mode:\n  type: Cluster\n  repository:\n    type: ZooKeeper\n    props:\n      namespace: " + NAMESPACE + "\n      server-lists: "
                    + server.getConnectString() + "\n      digest: " + DIGEST + "\n";
            Path yaml = SegmentShardingYaml.write(dir.resolve("cluster.yaml"), H2_URL, mode, Map.of(), Map.of("segment-step-min", "5", "segment-step-max", "5",
                    // Ranges of 5 run out every round, so inserts often wait for a fetch: no room for a slow one on a loaded machine.
                    "segment-fetch-timeout-milliseconds", "30000"));
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
                try (CuratorFramework client = CuratorFrameworkFactory.builder().connectString(server.getConnectString()).retryPolicy(new RetryOneTime(100)).build()) {
                    client.start();
                    ZooKeeperRangeLog log = new ZooKeeperRangeLog(client, NAMESPACE);
                    assertEquals(List.of("sharding_db.t_order", "sharding_db.t_order_item"), log.keys(), "one counter per logic table, under the mode's namespace");
                    check(log, instances, "t_order", ROUNDS);
                    check(log, instances, "t_order_item", 4 * ROUNDS);
                }
                try (CuratorFramework owner = CuratorFrameworkFactory.builder().connectString(server.getConnectString()).retryPolicy(new RetryOneTime(100))
                        .authorization("digest", DIGEST.getBytes(StandardCharsets.UTF_8)).build()) {
                    owner.start();
                    for (String each : List.of("/" + NAMESPACE + "/snowkey", "/" + NAMESPACE + "/snowkey/segments/sharding_db.t_order",
                            "/" + NAMESPACE + "/snowkey/segment-log/sharding_db.t_order_item")) {
                        assertEquals(DigestNodeAcls.aclOf(DIGEST), owner.getACL().forPath(each), each + " carries the digest ACL of the mode's digest");
                    }
                }
                for (Instance each : instances) {
                    each.process.getOutputStream().close();
                }
                for (Instance each : instances) {
                    assertTrue(each.process.waitFor(120, TimeUnit.SECONDS), "instance " + each.index + " stops" + each.log());
                    assertEquals(0, each.process.exitValue(), each.log());
                }
            } finally {
                instances.forEach(each -> each.process.destroyForcibly());
            }
        }
    }

    private void check(final ZooKeeperRangeLog log, final List<Instance> instances, final String table, final int rows) throws IOException {
        String key = SegmentShardingYaml.DATABASE + "." + table;
        List<RangeLogEntry> logged = log.recent(key, 100_000);
        RangeReconciliation reconciled = RangeReconciliation.ofLog(log, key, 100_000).requireNoOverlap();
        assertEquals(List.of(), reconciled.gaps(), "nobody crashed, so the log itself is contiguous: " + reconciled.report());
        Set<Long> seen = new HashSet<>();
        for (Instance each : instances) {
            List<Long> keys = each.keys(table);
            assertEquals(rows, keys.size(), table + " of instance " + each.index);
            for (int i = 1; i < keys.size(); i++) {
                assertTrue(keys.get(i) > keys.get(i - 1), table + " keys of instance " + each.index + " increase in insert order: " + keys);
            }
            for (long k : keys) {
                assertTrue(seen.add(k), table + " key " + k + " issued twice");
                String owner = logged.stream().filter(entry -> entry.range().first() <= k && k <= entry.range().last()).map(RangeLogEntry::owner).findFirst()
                        .orElseThrow(() -> new AssertionError(table + " key " + k + " lies in no logged range: " + reconciled.report()));
                assertTrue(owner.startsWith(each.process.pid() + "@"), table + " key " + k + " of instance " + each.index + " (pid " + each.process.pid()
                        + ") lies in a range logged for " + owner);
            }
        }
        for (Instance each : instances) {
            assertTrue(logged.stream().anyMatch(entry -> entry.owner().startsWith(each.process.pid() + "@")), "instance " + each.index + " took ranges of " + key);
        }
        if (table.equals("t_order")) {
            // No props: default ranges of 1,000, so each instance holds one range and its keys are dense.
            for (Instance each : instances) {
                List<Long> keys = each.keys(table);
                assertEquals(keys.get(0) + rows - 1, keys.get(rows - 1), "dense within instance " + each.index + ": " + keys);
                assertTrue(logged.stream().map(RangeLogEntry::range).anyMatch(range -> range.first() == keys.get(0) && range.size() == 1_000),
                        "a default range of 1,000: " + logged);
            }
        } else {
            assertTrue(logged.stream().map(RangeLogEntry::range).allMatch(range -> range.size() == 5), "ranges of 5: " + reconciled.report());
        }
    }

    /** One ShardingSphere JVM and the lines it prints. */
    private final class Instance {

        private final int index;

        private final Process process;

        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

        Instance(final int index, final Path yaml) throws IOException {
            this.index = index;
            String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                    "-cp", classpath, SegmentClusterModeInstance.class.getName(),
                    yaml.toString(), H2_URL, String.valueOf(ROUNDS), dir.resolve("keys-" + index).toString());
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
