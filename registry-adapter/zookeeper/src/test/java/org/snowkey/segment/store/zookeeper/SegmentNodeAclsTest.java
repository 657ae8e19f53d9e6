package org.snowkey.segment.store.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.lease.testing.StartValuesFixtures;
import org.snowkey.keygen.segment.runtime.OpenAllocator;
import org.snowkey.store.zookeeper.DigestNodeAcls;

/**
 * With {@code zookeeper-digest} set, the segment nodes are SnowKey's alone: nodes SnowKey creates (parents included)
 * carry its digest ACL, and a counter, log node or parent that an unauthenticated client prepared open before SnowKey
 * first ran is refused before any range is taken from it, naming the node and its ACL. Through the allocator provider,
 * as ShardingSphere opens it, on a real ZooKeeper server.
 */
@Timeout(60)
class SegmentNodeAclsTest {

    private static final String DIGEST = "snowkey:Seg-Digest-2718";

    private static final String KEY = "sharding_db.t_order";

    private static TestingServer server;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    private String namespace;

    private CuratorFramework intruder;

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
    void connectIntruder() throws Exception {
        namespace = "acl" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        paths = new ZooKeeperSegmentPaths(namespace);
        intruder = CuratorFrameworkFactory.builder().connectString(server.getConnectString()).retryPolicy(new RetryOneTime(100)).build();
        intruder.start();
        intruder.blockUntilConnected();
        toClose.add(intruder);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable each : toClose) {
            each.close();
        }
    }

    private OpenAllocator openWithDigest() {
        Properties props = new Properties();
        props.setProperty("zookeeper-server-lists", server.getConnectString());
        props.setProperty("zookeeper-namespace", namespace);
        props.setProperty("zookeeper-digest", DIGEST);
        ZooKeeperSegmentAllocatorProvider provider = new ZooKeeperSegmentAllocatorProvider();
        OpenAllocator allocator = provider.prepare(provider.parse(new PropertyReader(props), SegmentSettings.defaults()), Optional.empty()).open("acl-test@host", StartValuesFixtures.everyKeyAtOne());
        toClose.add(allocator);
        return allocator;
    }

    /** A client authenticated as the digest user, as an operator with the password would be. */
    private CuratorFramework ownerClient() throws InterruptedException {
        CuratorFramework owner = CuratorFrameworkFactory.builder().connectString(server.getConnectString()).retryPolicy(new RetryOneTime(100))
                .authorization("digest", DIGEST.getBytes(StandardCharsets.UTF_8)).build();
        owner.start();
        toClose.add(owner);
        owner.blockUntilConnected();
        return owner;
    }

    @Test
    void nodesSnowKeyCreatesCarryTheDigestAclAndOthersCannotSetTheCounterBack() throws Exception {
        OpenAllocator allocator = openWithDigest();
        assertEquals(new NumberRange(1, 10), allocator.allocate(KEY, 10));
        List<String> entries = intruder.getChildren().forPath(paths.log(KEY));
        assertEquals(1, entries.size(), "one log entry: " + entries);
        DigestNodeAcls acls = new DigestNodeAcls(DIGEST);
        // Read as the digest user: ZooKeeper shows a digest id to its own user only.
        CuratorFramework owner = ownerClient();
        for (String each : List.of(paths.root(), paths.counters(), paths.logs(), paths.counter(KEY), paths.log(KEY), paths.log(KEY) + "/" + entries.get(0))) {
            assertEquals(DigestNodeAcls.aclOf(DIGEST), owner.getACL().forPath(each), each + " carries SnowKey's ACL");
            assertTrue(acls.isSafe(owner.getACL().forPath(each)), each);
        }
        assertThrows(KeeperException.NoAuthException.class, () -> intruder.setData().forPath(paths.counter(KEY), "1".getBytes(StandardCharsets.US_ASCII)),
                "a client without the digest cannot set the counter back");
        assertThrows(KeeperException.NoAuthException.class, () -> intruder.create().forPath(paths.log(KEY) + "/r-forged"),
                "nor add a log entry");
        assertEquals(new NumberRange(11, 20), allocator.allocate(KEY, 10), "checked once, then allocating as usual");
    }

    @Test
    void aCounterPreparedOpenIsRefusedBeforeFirstUseNamingTheNodeAndItsAcl() throws Exception {
        // Before SnowKey ever ran: the whole path, counter at 1, open to anyone (Curator's default ACL).
        intruder.create().creatingParentsIfNeeded().forPath(paths.counter(KEY), "1".getBytes(StandardCharsets.US_ASCII));
        OpenAllocator allocator = openWithDigest();
        RangeUnavailableException refused = assertThrows(RangeUnavailableException.class, () -> allocator.allocate(KEY, 10));
        String message = refused.getMessage();
        assertTrue(message.contains("node " + paths.counter(KEY) + " has ACL [world:anyone=cdrwa]"), message);
        assertTrue(message.contains("node " + paths.root() + " has ACL [world:anyone=cdrwa]"), "the parents too: " + message);
        assertTrue(message.contains("zookeeper-digest") && message.contains("'" + KEY + "'"), message);
        assertFalse(message.contains("Seg-Digest-2718"), "never the password: " + message);
        assertEquals("1", new String(intruder.getData().forPath(paths.counter(KEY)), StandardCharsets.US_ASCII), "no range was taken");
        assertTrue(intruder.getChildren().forPath(paths.log(KEY)).isEmpty(), "nothing logged");
    }

    @Test
    void anOpenParentIsRefusedAndAnOperatorsRepairLetsAllocationsStart() throws Exception {
        intruder.create().creatingParentsIfNeeded().forPath(paths.root());
        OpenAllocator allocator = openWithDigest();
        String message = assertThrows(RangeUnavailableException.class, () -> allocator.allocate(KEY, 10)).getMessage();
        assertTrue(message.contains("node " + paths.root() + " has ACL [world:anyone=cdrwa]"), message);
        assertFalse(message.contains("node " + paths.counters() + " "), "the nodes SnowKey created below are its own: " + message);
        assertEquals(List.of(), intruder.getChildren().forPath(paths.log(KEY)), "nothing logged");
        // Refused on every try, not only the first: no range comes from the open path.
        assertThrows(RangeUnavailableException.class, () -> allocator.allocate(KEY, 10));
        // The operator checks the path and locks it on purpose; the next allocation goes ahead.
        intruder.setACL().withACL(DigestNodeAcls.aclOf(DIGEST)).forPath(paths.root());
        assertEquals(new NumberRange(1, 10), allocator.allocate(KEY, 10));
    }

    @Test
    void anOpenLogNodeOfTheKeyIsRefused() throws Exception {
        // SnowKey's own parents, from another key...
        openWithDigest().allocate("sharding_db.t_other", 5);
        // ...and a log node someone else was allowed to create under them before the digest was set (here: by hand,
        // authenticated, with an open ACL).
        ownerClient().create().withACL(org.apache.zookeeper.ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(paths.log(KEY));
        String message = assertThrows(RangeUnavailableException.class, () -> openWithDigest().allocate(KEY, 10)).getMessage();
        assertTrue(message.contains("node " + paths.log(KEY) + " has ACL [world:anyone=cdrwa]"), message);
        assertFalse(message.contains("node " + paths.counter(KEY) + " "), "the counter was created by SnowKey: " + message);
    }
}
