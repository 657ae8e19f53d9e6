package org.snowkey.lease.store.zookeeper;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.LeaseStoreUnavailableException;
import org.snowkey.lease.testing.CuttableTcpProxy;
import org.snowkey.store.zookeeper.ZooKeeperStoreSettings;

/**
 * A ZooKeeper server that freezes with its connection open (a stopped VM, a partition that drops nothing): a
 * store call must give up after the request timeout (the connection timeout), not wait out the 60 s session
 * while the lease lock is held around it. The bound below is liveness, far above the 2 s timeout.
 */
class ZooKeeperFrozenServerTest {

    @Test
    void aCallToAFrozenServerFailsAfterTheRequestTimeout() throws Exception {
        // A tick of 3 s lets the server grant the 60 s session the store asks for, as a production ensemble does (20 ticks):
        // without a request timeout the client would then wait 40 s (two thirds of the session) for the frozen server.
        try (TestingServer server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 3_000, -1), true); CuttableTcpProxy proxy = new CuttableTcpProxy(server.getPort());
             ZooKeeperLeaseStore store = new ZooKeeperLeaseStore(new ZooKeeperStoreSettings("127.0.0.1:" + proxy.port(), "frozen", null, 2_000))) {
            store.create(new LeaseRecord("default", 1, "a", 1, 100, 100, LeaseRecord.State.HELD)).orElseThrow();
            proxy.freeze();
            LeaseStoreUnavailableException frozen = assertTimeoutPreemptively(Duration.ofSeconds(20),
                    () -> assertThrows(LeaseStoreUnavailableException.class, () -> store.read("default", 1)));
            assertTrue(frozen.getMessage().contains("read"), frozen.getMessage());
        }
    }
}
