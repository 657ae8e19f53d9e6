package org.snowkey.lease.store.zookeeper;

import java.nio.charset.StandardCharsets;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.snowkey.lease.AbstractLeaseProtocolContractTest;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.store.zookeeper.ZooKeeperStoreSettings;

/** The lease protocol contract on a real ZooKeeper server (Curator's TestingServer). */
class ZooKeeperLeaseProtocolTest extends AbstractLeaseProtocolContractTest {

    private static final String NAMESPACE = "contract";

    private static TestingServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = new TestingServer(true);
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    @Override
    protected LeaseStore openStore() {
        return new ZooKeeperLeaseStore(new ZooKeeperStoreSettings(server.getConnectString(), NAMESPACE, null, 1_000));
    }

    @Override
    protected void writeGarbage(final String pool, final int workerId, final String content) throws Exception {
        try (CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(100))) {
            client.start();
            String path = "/" + NAMESPACE + "/snowkey/" + pool + "/workers/" + workerId;
            byte[] data = content.getBytes(StandardCharsets.UTF_8);
            if (client.checkExists().forPath(path) == null) {
                client.create().creatingParentsIfNeeded().forPath(path, data);
            } else {
                client.setData().forPath(path, data);
            }
        }
    }

    @Override
    protected void stopRegistry() throws Exception {
        server.stop();
    }

    @Override
    protected void startRegistry() throws Exception {
        server.restart();
    }
}
