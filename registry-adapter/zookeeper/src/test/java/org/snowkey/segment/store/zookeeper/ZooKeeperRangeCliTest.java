package org.snowkey.segment.store.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.lease.testing.StartValuesFixtures;
import org.snowkey.lease.admin.LeaseCli;
import org.snowkey.lease.admin.RangeAdmin;
import org.snowkey.segment.store.RangeLogJson;

/**
 * {@code LeaseCli --registry zookeeper ranges | reconcile} on ranges a real {@link ZooKeeperRangeAllocator} handed out
 * from a TestingServer: listing, a gap reported as a gap, and overlaps planted by hand (a log node, a lowered counter)
 * failing loudly with exit 3.
 */
class ZooKeeperRangeCliTest {

    private static final String KEY = "shop_db.t_order";

    private static TestingServer server;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private String namespace;

    private CuratorFramework client;

    private ZooKeeperSegmentPaths paths;

    @BeforeAll
    static void startServer() throws Exception {
        server = new TestingServer(true);
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    @BeforeEach
    void allocate() {
        namespace = "segcli" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        paths = new ZooKeeperSegmentPaths(namespace);
        client = CuratorFrameworkFactory.builder().connectString(server.getConnectString()).retryPolicy(new RetryOneTime(100)).connectionTimeoutMs(10_000).build();
        client.start();
        ZooKeeperRangeAllocator allocator = new ZooKeeperRangeAllocator(client, namespace, "app-1@host", StartValuesFixtures.everyKeyAtOne());
        for (int i = 0; i < 5; i++) {
            allocator.allocate(KEY, 10);
        }
        allocator.allocate("shop_db.t_item", 100);
    }

    @AfterEach
    void closeClient() {
        client.close();
    }

    private int run(final String... command) {
        List<String> args = new ArrayList<>(List.of("--registry", "zookeeper", "--servers", server.getConnectString(), "--namespace", namespace));
        args.addAll(List.of(command));
        return LeaseCli.run(args.toArray(String[]::new), Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void rangesListsTheMostRecentRangesOfAKeyAndWithoutAKeyEveryKey() {
        assertEquals(0, run("ranges", "--key", KEY, "--limit", "2"), err());
        assertTrue(out().contains("next value 51") && out().contains("the 2 most recent range(s)"), out());
        assertTrue(out().matches("(?s).*\\n31\\s+40\\s+10\\s+app-1@host\\s.*\\n41\\s+50\\s+10\\s+app-1@host\\s.*"), out());
        assertTrue(!out().contains("\n21 "), out());
        out.reset();
        assertEquals(0, run("ranges"), err());
        assertTrue(out().contains("2 segment key(s)") && out().matches("(?s).*shop_db\\.t_item\\s+101\\s.*"), out());
    }

    @Test
    void reconcileReportsAGapAsAGapAndSucceeds() throws Exception {
        assertEquals(0, run("reconcile"), err());
        assertTrue(out().contains("key '" + KEY + "': 5 ranges from 1 to 50, 0 gaps, 0 overlaps (OK)"), out());
        // Numbers above the log that the counter already passed (a start value raised by hand): a gap at the end.
        client.setData().forPath(paths.counter(KEY), "61".getBytes(StandardCharsets.UTF_8));
        out.reset();
        assertEquals(0, run("reconcile", "--key", KEY), err());
        assertTrue(out().contains("1 gaps, 0 overlaps (OK)") && out().contains("gap 51..60"), out());
    }

    @Test
    void reconcileFailsLoudlyOnALogNodePlantedByHand() throws Exception {
        client.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(paths.entryPrefix(KEY), RangeLogJson.write(new NumberRange(45, 54), "intruder@host", 0));
        assertEquals(RangeAdmin.OVERLAP, run("reconcile"), out());
        assertTrue(err().contains("OVERLAP") && err().contains("RECONCILIATION FAILED: 1 of 2 key(s)"), err());
        assertTrue(out().contains("OVERLAP ranges 41..50 and 45..54"), out());
    }

    @Test
    void reconcileFailsLoudlyOnACounterLoweredByHand() throws Exception {
        client.setData().forPath(paths.counter(KEY), "31".getBytes(StandardCharsets.UTF_8));
        assertEquals(RangeAdmin.OVERLAP, run("reconcile", "--key", KEY), out());
        assertTrue(err().contains("the counter of key '" + KEY + "' is at 31"), err());
    }

    @Test
    void anUnreachableEnsembleFailsWithTheAddress() {
        String[] args = {"--registry", "zookeeper", "--servers", "127.0.0.1:1", "--namespace", namespace, "reconcile"};
        int status = LeaseCli.run(args, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, status, err());
        assertTrue(err().contains("127.0.0.1:1"), err());
    }
}
