package org.snowkey.lease.store.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseUnavailableException;
import org.snowkey.keygen.lease.PreparedLease;
import org.snowkey.keygen.lease.WorkerLease;
import org.snowkey.keygen.runtime.SnowflakePlan;
import org.snowkey.keygen.runtime.SnowflakePlanner;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.lease.LeaseRuntimeOptions;
import org.snowkey.lease.LeasedWorkerLease;
import org.snowkey.lease.WorkerIdCheckpoint;
import org.snowkey.lease.admin.LeaseCli;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.StoredLease;
import org.snowkey.lease.testing.Ids;
import org.snowkey.store.zookeeper.ZooKeeperStoreSettings;

/** What only the ZooKeeper store does: digest ACL, start-up against an unreachable ensemble, the provider, the CLI. */
class ZooKeeperLeaseStoreTest {

    private static TestingServer server;

    @TempDir
    Path checkpointDir;

    @BeforeAll
    static void startServer() throws Exception {
        server = new TestingServer(true);
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    private static CuratorFramework plainClient(final String digest) {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder().connectString(server.getConnectString()).retryPolicy(new RetryOneTime(100));
        if (digest != null) {
            builder.authorization("digest", digest.getBytes(StandardCharsets.UTF_8));
        }
        CuratorFramework client = builder.build();
        client.start();
        return client;
    }

    private LeasedWorkerLease lease(final ZooKeeperStoreSettings settings, final String pool, final String instanceId) {
        return new LeasedWorkerLease(new ZooKeeperLeaseStore(settings), new LeaseTerms(pool, 1_500, 5_000, instanceId), Ids.layout(4),
                LeaseRuntimeOptions.defaults().withCheckpoint(new WorkerIdCheckpoint(checkpointDir, pool + instanceId)));
    }

    @Test
    void withADigestOtherClientsCanReadButNeitherModifyNorDeleteLeases() throws Exception {
        ZooKeeperStoreSettings guarded = new ZooKeeperStoreSettings(server.getConnectString(), "acl", "snowkey:s3cret", 2_000);
        try (LeasedWorkerLease lease = lease(guarded, "guarded", "owner-a")) {
            LeaseGrant grant = lease.currentGrant();
            String path = "/acl/snowkey/guarded/workers/" + grant.workerId();
            for (String digest : new String[] {null, "snowkey:wrong", "intruder:s3cret"}) {
                try (CuratorFramework other = plainClient(digest)) {
                    assertTrue(new String(other.getData().forPath(path), StandardCharsets.UTF_8).contains("owner-a"), "everyone may read");
                    assertThrows(KeeperException.NoAuthException.class, () -> other.setData().forPath(path, "{}".getBytes(StandardCharsets.UTF_8)),
                            "modify as " + digest);
                    assertThrows(KeeperException.NoAuthException.class, () -> other.delete().forPath(path), "delete as " + digest);
                    assertThrows(KeeperException.NoAuthException.class, () -> other.delete().deletingChildrenIfNeeded().forPath("/acl/snowkey"),
                            "delete the tree as " + digest);
                }
            }
            // A SnowKey store without the digest fails with a message that names the prop to set.
            try (ZooKeeperLeaseStore unauthorised = new ZooKeeperLeaseStore(new ZooKeeperStoreSettings(server.getConnectString(), "acl", null, 2_000))) {
                StoredLease stored = unauthorised.read("guarded", grant.workerId()).orElseThrow();
                IllegalStateException denied = assertThrows(IllegalStateException.class, () -> unauthorised.compareAndSet(stored.record(), stored.storeVersion()));
                assertTrue(denied.getMessage().contains("zookeeper-digest"), denied.getMessage());
            }
            // The holder itself keeps renewing through the ACL.
            long ceiling = grant.ceilingMillis();
            Ids.await("renewal through the ACL", Duration.ofSeconds(20), () -> grant.ceilingMillis() > ceiling);
        }
    }

    @Test
    void anUnreachableEnsembleAtStartUpFailsAfterTheAcquireTimeoutNamingTheAddress() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Properties props = new Properties();
        props.setProperty("zookeeper-server-lists", "127.0.0.1:" + port);
        props.setProperty("lease-acquire-timeout-milliseconds", "1500");
        PreparedLease prepared = new ZooKeeperLeaseProvider().prepare(props, Ids.layout(13), Optional.empty());
        try (WorkerLease lease = prepared.open()) {
            LeaseUnavailableException failure = assertThrows(LeaseUnavailableException.class, lease::currentGrant);
            assertTrue(failure.getMessage().contains("127.0.0.1:" + port), failure.getMessage());
            assertTrue(failure.getMessage().contains("1500 ms"), failure.getMessage());
        }
    }

    @Test
    void throughTheRuntimeIdsCarryTheLeasedWorkerIdAndClosingReleases() {
        Properties props = new Properties();
        props.setProperty("lease-registry", "zookeeper");
        props.setProperty("zookeeper-server-lists", server.getConnectString());
        props.setProperty("zookeeper-namespace", "runtime");
        props.setProperty("lease-pool", "runtime-pool");
        SnowflakePlan plan = SnowflakePlanner.get().plan(props, Optional.empty());
        assertTrue(plan.scopeKey().startsWith("zookeeper|"), plan.scopeKey());
        IdGenerator generator = SnowflakeRuntime.get().generator(plan);
        long id = generator.nextId();
        int workerId = generator.decode(id).workerId();
        try (ZooKeeperLeaseStore store = new ZooKeeperLeaseStore(new ZooKeeperStoreSettings(server.getConnectString(), "runtime", null, 2_000))) {
            assertEquals(LeaseRecord.State.HELD, store.read("runtime-pool", workerId).orElseThrow().record().state());
            SnowflakeRuntime.get().closeAll();
            LeaseRecord released = store.read("runtime-pool", workerId).orElseThrow().record();
            assertEquals(LeaseRecord.State.RELEASED, released.state());
            assertEquals(generator.layout().toWallClock(generator.decode(id).logicalTimestamp()), released.reservedUntil(), "exact high-water mark");
        }
    }

    @Test
    void theCliListsAPoolAndReleasesOnlyWithConfirmation() {
        ZooKeeperStoreSettings settings = new ZooKeeperStoreSettings(server.getConnectString(), "cli", null, 2_000);
        try (LeasedWorkerLease lease = lease(settings, "ops", "ops-holder")) {
            LeaseGrant grant = lease.currentGrant();
            String[] base = {"--registry", "zookeeper", "--servers", server.getConnectString(), "--namespace", "cli", "--pool", "ops"};
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            assertEquals(0, LeaseCli.run(concat(base, "list"), Map.of(), new PrintStream(out, true), new PrintStream(err, true)), err.toString());
            String listing = out.toString();
            assertTrue(listing.contains("ops-holder") && listing.contains("HELD") && listing.contains("RESERVED-UNTIL"), listing);

            err.reset();
            assertEquals(2, LeaseCli.run(concat(base, "release", String.valueOf(grant.workerId())), Map.of(), new PrintStream(out, true), new PrintStream(err, true)));
            assertTrue(err.toString().contains(LeaseCli.CONFIRM), err.toString());
            assertTrue(lease.heldGrant().isPresent(), "nothing released without the flag");

            out.reset();
            assertEquals(0, LeaseCli.run(concat(base, "release", String.valueOf(grant.workerId()), LeaseCli.CONFIRM), Map.of(),
                    new PrintStream(out, true), new PrintStream(err, true)), err.toString());
            assertTrue(out.toString().contains("released worker id " + grant.workerId()), out.toString());
            // The holder loses the number at its next renewal and moves on; the reservation keeps ids unique.
            Ids.await("the holder notices the manual release", Duration.ofSeconds(20), grant::isRevoked);
        }
    }

    @Test
    void theCliRejectsBadArgumentsWithUsage() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, LeaseCli.run(new String[] {"--registry", "zookeeper", "list"}, Map.of(), System.out, new PrintStream(err, true)));
        assertTrue(err.toString().contains("zookeeper-server-lists"), err.toString());
        err.reset();
        assertEquals(2, LeaseCli.run(new String[] {"--registry", "zookeeper", "--servers", "localhost:2181", "frobnicate"}, Map.of(), System.out, new PrintStream(err, true)));
        assertTrue(err.toString().contains("usage"), err.toString());
    }

    private static String[] concat(final String[] base, final String... more) {
        String[] result = new String[base.length + more.length];
        System.arraycopy(base, 0, result, 0, base.length);
        System.arraycopy(more, 0, result, base.length, more.length);
        return result;
    }
}
