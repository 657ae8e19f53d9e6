package org.snowkey.lease.store.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.lease.LeaseRuntimeOptions;
import org.snowkey.lease.LeasedWorkerLease;
import org.snowkey.lease.WorkerIdCheckpoint;
import org.snowkey.lease.testing.Ids;
import org.snowkey.store.zookeeper.ZooKeeperStoreSettings;

/**
 * ZooKeeper-side failures while a lease is held: the client's session expires, and the server the client talks
 * to in a three-node ensemble dies. Neither may cost the grant: leases are persistent nodes, not session-bound.
 */
class ZooKeeperEnsembleFailureTest {

    private static final int BITS = 4;

    @TempDir
    Path checkpointDir;

    private LeasedWorkerLease lease(final ZooKeeperLeaseStore store, final String pool) {
        return new LeasedWorkerLease(store, new LeaseTerms(pool, 3_000, 10_000, "survivor"), Ids.layout(BITS),
                LeaseRuntimeOptions.defaults().withCheckpoint(new WorkerIdCheckpoint(checkpointDir, pool)));
    }

    @Test
    void anExpiredSessionDoesNotCostTheLease() throws Exception {
        try (TestingServer server = new TestingServer(true)) {
            ZooKeeperLeaseStore store = new ZooKeeperLeaseStore(new ZooKeeperStoreSettings(server.getConnectString(), "failures", null, 2_000));
            try (LeasedWorkerLease lease = lease(store, "session")) {
                IdGenerator generator = new IdGenerator(Ids.layout(BITS), lease, WallClock.system(), new ClockRules(10, 10_000));
                LeaseGrant grant = lease.currentGrant();
                generator.nextId();
                long ceiling = grant.ceilingMillis();
                store.client().getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
                Set<Long> ids = new HashSet<>();
                for (int i = 0; i < 1_000; i++) {
                    ids.add(generator.nextId());
                }
                assertEquals(1_000, ids.size());
                Ids.await("renewal in a new session", Duration.ofSeconds(30), () -> grant.ceilingMillis() > ceiling);
                assertFalse(grant.isRevoked(), String.valueOf(grant.revocationReason()));
                assertSame(grant, lease.currentGrant());
            }
        }
    }

    @Test
    void losingTheConnectedServerOfAThreeNodeEnsembleDoesNotCostTheLease() throws Exception {
        try (TestingCluster cluster = new TestingCluster(3)) {
            cluster.start();
            ZooKeeperLeaseStore store = new ZooKeeperLeaseStore(new ZooKeeperStoreSettings(cluster.getConnectString(), "failures", null, 3_000));
            try (LeasedWorkerLease lease = lease(store, "ensemble")) {
                IdGenerator generator = new IdGenerator(Ids.layout(BITS), lease, WallClock.system(), new ClockRules(10, 10_000));
                LeaseGrant grant = lease.currentGrant();
                long before = generator.nextId();
                InstanceSpec connected = cluster.findConnectionInstance(store.client().getZookeeperClient().getZooKeeper());
                assertTrue(cluster.killServer(connected), "killed " + connected);
                long ceiling = grant.ceilingMillis();
                Ids.await("renewal through the remaining quorum", Duration.ofSeconds(60), () -> grant.ceilingMillis() > ceiling);
                assertFalse(grant.isRevoked(), String.valueOf(grant.revocationReason()));
                assertTrue(generator.nextId() > before);
                assertSame(grant, lease.currentGrant());
            }
        }
    }
}
