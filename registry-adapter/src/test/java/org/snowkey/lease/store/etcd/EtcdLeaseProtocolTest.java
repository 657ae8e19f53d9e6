package org.snowkey.lease.store.etcd;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.snowkey.lease.AbstractLeaseProtocolContractTest;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.store.etcd.EtcdClient;
import org.snowkey.store.etcd.EtcdStoreSettings;
import org.snowkey.store.etcd.EtcdTestServer;
import org.snowkey.store.etcd.EtcdTxn;

/** The lease protocol contract on a real etcd server (Debian's etcd-server), stopped and started by the outage scenarios. */
class EtcdLeaseProtocolTest extends AbstractLeaseProtocolContractTest {

    private static final String NAMESPACE = "contract";

    @RegisterExtension
    static final EtcdTestServer.PerClass ETCD = new EtcdTestServer.PerClass();

    private static EtcdStoreSettings settings() {
        // One second per request, as the ZooKeeper contract's connection timeout: outages are noticed within a short lease.
        return EtcdStoreSettings.plain(ETCD.server().settings(NAMESPACE).endpoints(), NAMESPACE, 1_000);
    }

    @Override
    protected LeaseStore openStore() {
        return new EtcdLeaseStore(new EtcdClient(settings()));
    }

    @Override
    protected void writeGarbage(final String pool, final int workerId, final String content) {
        try (EtcdClient client = new EtcdClient(settings())) {
            client.txn(new EtcdTxn().put(NAMESPACE + "/snowkey/" + pool + "/workers/" + workerId, content.getBytes(StandardCharsets.UTF_8)));
        }
    }

    @Override
    protected void stopRegistry() {
        ETCD.server().stop();
    }

    @Override
    protected void startRegistry() throws Exception {
        ETCD.server().start();
    }
}
