package org.snowkey.lease.store.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.lease.admin.LeaseCli;
import org.snowkey.lease.UnusablePoolException;
import org.snowkey.lease.store.LeaseRecordJson;
import org.snowkey.lease.testing.Ids;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseUnavailableException;
import org.snowkey.keygen.lease.WorkerLease;
import org.snowkey.lease.store.LeaseRecord;

/**
 * A registry prepared by someone else is not trusted: an unauthenticated client creates SnowKey's path with an open
 * ACL before SnowKey first starts and plants a RELEASED record with {@code reservedUntil = 0}. With
 * {@code zookeeper-digest} set, SnowKey refuses to start naming the node and its ACL; the operations tool repairs it
 * only on request, after which the intruder can change nothing and the planted record no longer lowers any floor.
 * The digest reaches the operations tool through the environment or a file, never the command line.
 */
class ZooKeeperAclTrustTest {

    private static final String DIGEST = "snowkey:Zk-Digest-5150";

    private static final String PASSWORD = "Zk-Digest-5150";

    private static TestingServer server;

    @TempDir
    Path work;

    private CuratorFramework intruder;

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
    void connectIntruder() throws Exception {
        intruder = CuratorFrameworkFactory.builder().connectString(server.getConnectString()).retryPolicy(new RetryOneTime(100)).build();
        intruder.start();
        intruder.blockUntilConnected();
        namespace = "trust" + System.nanoTime();
    }

    @AfterEach
    void closeIntruder() {
        intruder.close();
    }

    private String workers() {
        return "/" + namespace + "/snowkey/default/workers";
    }

    /** What the intruder does before SnowKey's first start: an open path and a forged RELEASED record for number 0. */
    private void prepareOpenPathWithForgedRecord() throws Exception {
        intruder.create().creatingParentsIfNeeded().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(workers());
        intruder.create().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(workers() + "/0",
                LeaseRecordJson.write(new LeaseRecord("default", 0, "intruder", 1, 0, 0, LeaseRecord.State.RELEASED)));
    }

    private WorkerLease openLease(final String digest) {
        Properties props = new Properties();
        props.setProperty("lease-registry", "zookeeper");
        props.setProperty("zookeeper-server-lists", server.getConnectString());
        props.setProperty("zookeeper-namespace", namespace);
        props.setProperty("worker-id-bits", "4");
        // Long on purpose: a refusal that were retried like an outage would hold the test for a minute.
        props.setProperty("lease-acquire-timeout-milliseconds", "60000");
        if (digest != null) {
            props.setProperty("zookeeper-digest", digest);
        }
        return new ZooKeeperLeaseProvider().prepare(props, Ids.layout(4), Optional.empty()).open();
    }

    @Test
    void anOpenPathPreparedByAnotherClientIsRefusedAtStartUp() throws Exception {
        prepareOpenPathWithForgedRecord();
        try (WorkerLease lease = openLease(DIGEST)) {
            LeaseUnavailableException refused = assertThrows(LeaseUnavailableException.class, lease::currentGrant);
            assertInstanceOf(UnusablePoolException.class, refused.getCause());
            String message = refused.getMessage();
            assertTrue(message.contains("node /" + namespace + "/snowkey has ACL [world:anyone=cdrwa]"), message);
            assertTrue(message.contains("node " + workers() + " has ACL [world:anyone=cdrwa]"), message);
            assertTrue(message.contains("node " + workers() + "/0 has ACL [world:anyone=cdrwa]"), message);
            assertTrue(message.contains("repair-acl"), message);
            assertNoDigest(message);
        }
        // Nothing was claimed or written: the forged record is as the intruder left it.
        assertEquals(0, intruder.checkExists().forPath(workers() + "/0").getVersion());
        assertEquals(1, intruder.getChildren().forPath(workers()).size());
    }

    @Test
    void onlyTheRootLeftOpenIsRefusedToo() throws Exception {
        intruder.create().creatingParentsIfNeeded().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath("/" + namespace + "/snowkey");
        try (WorkerLease lease = openLease(DIGEST)) {
            LeaseUnavailableException refused = assertThrows(LeaseUnavailableException.class, lease::currentGrant);
            assertTrue(refused.getMessage().contains("node /" + namespace + "/snowkey has ACL [world:anyone=cdrwa]"), refused.getMessage());
            assertFalse(refused.getMessage().contains("/default has ACL"), "SnowKey created the pool itself, locked: " + refused.getMessage());
        }
    }

    @Test
    void aRecordWithAnotherWriterIsRefusedEvenUnderLockedParents() throws Exception {
        try (WorkerLease lease = openLease(DIGEST)) {
            lease.currentGrant();
        }
        try (CuratorFramework other = CuratorFrameworkFactory.builder().connectString(server.getConnectString()).retryPolicy(new RetryOneTime(100))
                .authorization("digest", DIGEST.getBytes(StandardCharsets.UTF_8)).build()) {
            other.start();
            // The digest user itself (a mistake, or a second tool) opened one record up.
            other.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(workers() + "/" + other.getChildren().forPath(workers()).get(0));
        }
        try (WorkerLease lease = openLease(DIGEST)) {
            LeaseUnavailableException refused = assertThrows(LeaseUnavailableException.class, lease::currentGrant);
            assertTrue(refused.getMessage().contains("has ACL [world:anyone=cdrwa]"), refused.getMessage());
        }
    }

    @Test
    void theOperationsToolRepairsOnlyOnRequestAndTheForgedFloorNoLongerCounts() throws Exception {
        prepareOpenPathWithForgedRecord();
        Map<String, String> environment = Map.of(ZooKeeperStoreOperations.DIGEST_ENV, DIGEST);
        String[] base = {"--servers", server.getConnectString(), "--namespace", namespace, "--lease-duration-milliseconds", "5000"};

        Output listed = cli(environment, base, "list");
        assertEquals(1, listed.status(), listed.text());
        assertTrue(listed.text().contains("repair-acl"), listed.text());

        Output unconfirmed = cli(environment, base, "repair-acl");
        assertEquals(2, unconfirmed.status(), unconfirmed.text());
        assertEquals(0, intruder.checkExists().forPath(workers()).getAversion(), "nothing changed without the confirmation");

        long before = System.currentTimeMillis();
        Output repaired = cli(environment, base, "repair-acl", LeaseCli.CONFIRM);
        assertEquals(0, repaired.status(), repaired.text());
        assertTrue(repaired.text().contains("locked " + workers() + " (was [world:anyone=cdrwa])"), repaired.text());
        assertTrue(repaired.text().contains("reserved " + workers() + "/0 until"), repaired.text());

        // The intruder can no longer change, delete or add anything.
        assertThrows(KeeperException.NoAuthException.class, () -> intruder.setData().forPath(workers() + "/0", new byte[0]));
        assertThrows(KeeperException.NoAuthException.class, () -> intruder.delete().forPath(workers() + "/0"));
        assertThrows(KeeperException.NoAuthException.class, () -> intruder.create().forPath(workers() + "/1", new byte[0]));
        assertThrows(KeeperException.NoAuthException.class, () -> intruder.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(workers()));

        LeaseRecord raised = LeaseRecordJson.read("test", "default", 0, intruder.getData().forPath(workers() + "/0"));
        assertTrue(raised.reservedUntil() >= before + 5_000, "reservation raised above anything a real holder could have reserved: " + raised);
        // SnowKey starts now; if it takes number 0, it starts above the raised reservation, not at the forged 0.
        try (WorkerLease lease = openLease(DIGEST)) {
            LeaseGrant grant = lease.currentGrant();
            if (grant.workerId() == 0) {
                assertTrue(grant.floorMillis() >= before + 5_000, "floor " + grant.floorMillis());
            }
        }
        Output listedAfter = cli(environment, base, "list");
        assertEquals(0, listedAfter.status(), listedAfter.text());
        assertNoDigest(listed.text() + unconfirmed.text() + repaired.text() + listedAfter.text());
    }

    @Test
    void theRepairKeepsEachRecordsLayoutSoThatAnotherLayoutIsStillRefused() throws Exception {
        intruder.create().creatingParentsIfNeeded().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(workers());
        intruder.create().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(workers() + "/0",
                LeaseRecordJson.write(new LeaseRecord("default", 0, "earlier", 3, 0, 0, LeaseRecord.State.RELEASED, Ids.layout(5))));
        Map<String, String> environment = Map.of(ZooKeeperStoreOperations.DIGEST_ENV, DIGEST);
        String[] base = {"--servers", server.getConnectString(), "--namespace", namespace, "--lease-duration-milliseconds", "5000"};
        Output repaired = cli(environment, base, "repair-acl", LeaseCli.CONFIRM);
        assertEquals(0, repaired.status(), repaired.text());
        LeaseRecord raised = LeaseRecordJson.read("test", "default", 0, intruder.getData().forPath(workers() + "/0"));
        assertEquals(Ids.layout(5), raised.layout(), "the repair kept the record's layout: " + raised);
        assertEquals(3, raised.fencingToken());
        try (WorkerLease lease = openLease(DIGEST)) {
            LeaseUnavailableException refused = assertThrows(LeaseUnavailableException.class, lease::currentGrant);
            assertInstanceOf(UnusablePoolException.class, refused.getCause());
        }
    }

    @Test
    void withoutADigestTheOpenPathIsUsedAsDocumented() throws Exception {
        prepareOpenPathWithForgedRecord();
        try (WorkerLease lease = openLease(null)) {
            assertTrue(lease.currentGrant().workerId() >= 0);
        }
    }

    @Test
    void theDigestIsRefusedOnTheCommandLineAndReadFromAFile() throws Exception {
        try (WorkerLease lease = openLease(DIGEST)) {
            lease.currentGrant();
        }
        String[] base = {"--servers", server.getConnectString(), "--namespace", namespace};
        Output refused = cli(Map.of(), base, "--digest", DIGEST, "list");
        assertEquals(2, refused.status(), refused.text());
        assertTrue(refused.text().contains(ZooKeeperStoreOperations.DIGEST_ENV) && refused.text().contains("--digest-file"), refused.text());

        Path file = Files.writeString(work.resolve("digest"), DIGEST + "\n");
        Output fromFile = cli(Map.of(), base, "--digest-file", file.toString(), "list");
        assertEquals(0, fromFile.status(), fromFile.text());
        Output fromVariable = cli(Map.of("ZK_SECRET", DIGEST), base, "--digest-env", "ZK_SECRET", "list");
        assertEquals(0, fromVariable.status(), fromVariable.text());
        assertNoDigest(refused.text() + fromFile.text() + fromVariable.text());
    }

    /** The operations tool in its own JVM, every logger at TRACE: neither SnowKey, Curator nor ZooKeeper prints the digest. */
    @Test
    void theOperationsToolPrintsNoDigestAtAnyLogLevel() throws Exception {
        try (WorkerLease lease = openLease(DIGEST)) {
            lease.currentGrant();
        }
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-Dorg.slf4j.simpleLogger.defaultLogLevel=trace", "-Dorg.slf4j.simpleLogger.log.org.snowkey=trace", "-cp", classpath,
                LeaseCli.class.getName(), "--registry", "zookeeper", "--servers", server.getConnectString(), "--namespace", namespace, "list").redirectErrorStream(true);
        builder.environment().put(ZooKeeperStoreOperations.DIGEST_ENV, DIGEST);
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the operations tool did not end");
        String text = new String(output, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), text);
        assertTrue(text.contains("DEBUG") && text.contains("WORKER"), text);
        assertNoDigest(text);
    }

    private static Output cli(final Map<String, String> environment, final String[] base, final String... command) {
        String[] args = new String[2 + base.length + command.length];
        args[0] = "--registry";
        args[1] = "zookeeper";
        System.arraycopy(base, 0, args, 2, base.length);
        System.arraycopy(command, 0, args, 2 + base.length, command.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = LeaseCli.run(args, environment, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(out, true, StandardCharsets.UTF_8));
        return new Output(status, out.toString(StandardCharsets.UTF_8));
    }

    private static void assertNoDigest(final String text) {
        for (String secret : List.of(PASSWORD, DIGEST)) {
            byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
            for (String each : List.of(secret, Base64.getEncoder().encodeToString(bytes), HexFormat.of().formatHex(bytes), HexFormat.of().withUpperCase().formatHex(bytes))) {
                assertFalse(text.contains(each), "'" + each + "' in: " + text);
            }
        }
    }

    private record Output(int status, String text) {
    }
}
