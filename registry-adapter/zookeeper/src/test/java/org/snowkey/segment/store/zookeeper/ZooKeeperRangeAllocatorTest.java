package org.snowkey.segment.store.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.RangeAllocator;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.segment.store.AbstractRangeAllocatorContractTest;
import org.snowkey.segment.store.RangeLog;
import org.snowkey.segment.store.RangeLogEntry;
import org.snowkey.segment.store.RangeReconciliation;
import org.snowkey.keygen.segment.StartValues;
import org.snowkey.lease.testing.StartValuesFixtures;

/** The allocator contract on a real ZooKeeper server (Curator's TestingServer); a fresh namespace per test. */
class ZooKeeperRangeAllocatorTest extends AbstractRangeAllocatorContractTest {

    private static TestingServer server;

    private String namespace;

    @BeforeAll
    static void startServer() throws Exception {
        server = new TestingServer(true);
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    @BeforeEach
    void freshNamespace() {
        namespace = "seg" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    /** A client of its own per allocator, as a separate process would have. */
    private CuratorFramework client() {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(server.getConnectString()).retryPolicy(new RetryOneTime(100))
                .connectionTimeoutMs(10_000).build();
        client.start();
        return closeLater(client);
    }

    @Override
    protected RangeAllocator open(final String owner, final StartValues starts) {
        return new ZooKeeperRangeAllocator(client(), namespace, owner, starts);
    }

    @Override
    protected RangeAllocator openLosingNextAnswer(final String owner) {
        return new ZooKeeperRangeAllocator(AnswerLosingCurator.losingNextMultiOp(client()), namespace, owner, StartValuesFixtures.everyKeyAtOne());
    }

    @Override
    protected void deleteCounterByHand(final String key) throws Exception {
        client().delete().forPath(new ZooKeeperSegmentPaths(namespace).counter(key));
    }

    @Override
    protected RangeLog log() {
        return new ZooKeeperRangeLog(client(), namespace);
    }

    @Test
    @Timeout(60)
    void keysBecomeSafeNodeNames() throws Exception {
        RangeAllocator allocator = open("solo", StartValuesFixtures.everyKeyAtOne());
        allocator.allocate("ds_0.t_order", 1);
        allocator.allocate("..", 1);
        allocator.allocate("a/b%c ü", 1);
        CuratorFramework client = client();
        assertEquals(java.util.Set.of("ds_0.t_order", "%2E%2E", "a%2Fb%25c%20%C3%BC"),
                java.util.Set.copyOf(client.getChildren().forPath("/" + namespace + "/snowkey/segments")));
        assertEquals(List.of("..", "a/b%c ü", "ds_0.t_order"), log().keys());
        String entry = client.getChildren().forPath("/" + namespace + "/snowkey/segment-log/ds_0.t_order").get(0);
        assertTrue(entry.matches("r-\\d{10}"), entry);
        String json = new String(client.getData().forPath("/" + namespace + "/snowkey/segment-log/ds_0.t_order/" + entry), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(json.startsWith("{\"first\":1,\"last\":1,\"owner\":\"solo\",\"time\":"), json);
    }

    @Test
    @Timeout(60)
    void aMultiOpAppliedThenRetriedByTheClientIsAGapNotAnOverlap() {
        RangeAllocator healthy = open("healthy", StartValuesFixtures.everyKeyAtOne());
        RangeAllocator replaying = new ZooKeeperRangeAllocator(AnswerLosingCurator.replayingNextMultiOp(client()), namespace, "replaying", StartValuesFixtures.everyKeyAtOne());
        assertEquals(new NumberRange(1, 5), healthy.allocate("k", 5));
        // The replay fails on the counter's version, so the allocator reads again: its first range was lost, not reused.
        assertEquals(new NumberRange(11, 15), replaying.allocate("k", 5));
        assertEquals(new NumberRange(16, 20), healthy.allocate("k", 5));
        List<RangeLogEntry> logged = log().recent("k", 10);
        assertEquals(List.of(new NumberRange(1, 5), new NumberRange(6, 10), new NumberRange(11, 15), new NumberRange(16, 20)),
                logged.stream().map(RangeLogEntry::range).toList());
        RangeReconciliation byCallers = RangeReconciliation.of("k", List.of(new NumberRange(1, 5), new NumberRange(11, 15), new NumberRange(16, 20)),
                OptionalLong.empty()).requireNoOverlap();
        assertEquals(List.of(new NumberRange(6, 10)), byCallers.gaps());
    }

    @Test
    @Timeout(60)
    void aCorruptCounterIsReportedWithItsContent() throws Exception {
        RangeAllocator allocator = open("solo", StartValuesFixtures.everyKeyAtOne());
        allocator.allocate("k", 1);
        client().setData().forPath("/" + namespace + "/snowkey/segments/k", "twelve".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        RangeUnavailableException corrupt = assertThrows(RangeUnavailableException.class, () -> allocator.allocate("k", 1));
        assertTrue(corrupt.getMessage().contains("/" + namespace + "/snowkey/segments/k") && corrupt.getMessage().contains("'twelve'"), corrupt.getMessage());
    }

    @Test
    @Timeout(60)
    void anUnreachableEnsembleIsNamedInTheError() {
        CuratorFramework nowhere = CuratorFrameworkFactory.builder().connectString("127.0.0.1:1").retryPolicy(new RetryOneTime(10)).connectionTimeoutMs(500).build();
        nowhere.start();
        closeLater(nowhere);
        RangeUnavailableException down = assertThrows(RangeUnavailableException.class,
                () -> new ZooKeeperRangeAllocator(nowhere, namespace, "solo", StartValuesFixtures.everyKeyAtOne()).allocate("k", 1));
        assertTrue(down.getMessage().contains("127.0.0.1:1") && down.getMessage().contains("CONNECTIONLOSS"), down.getMessage());
    }
}
