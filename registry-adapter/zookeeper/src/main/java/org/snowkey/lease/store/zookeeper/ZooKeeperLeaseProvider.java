package org.snowkey.lease.store.zookeeper;

import java.util.Set;

import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.lease.LeaseRequest;
import org.snowkey.keygen.lease.PreparedLease;
import org.snowkey.lease.LeaseSettings;
import org.snowkey.lease.StoreLeaseProvider;
import org.snowkey.lease.admin.StoreOperations;
import org.snowkey.lease.store.LeaseStore;

/**
 * {@code lease-registry: zookeeper}, and the backend of ShardingSphere Cluster mode with a ZooKeeper repository.
 * {@link #prepare} only validates; {@link PreparedLease#open()} starts the Curator client, and the first grant
 * request acquires.
 */
public final class ZooKeeperLeaseProvider extends StoreLeaseProvider<ZooKeeperStoreSettings> {

    public static final String REGISTRY = "zookeeper";

    public ZooKeeperLeaseProvider() {
        super(REGISTRY, "org.snowkey:snowkey-lease-zookeeper",
                "org.apache.curator.framework.CuratorFramework", "org.apache.curator:curator-framework",
                "org.apache.curator.RetryPolicy", "org.apache.curator:curator-client",
                "org.apache.zookeeper.ZooKeeper", "org.apache.zookeeper:zookeeper",
                "com.fasterxml.jackson.databind.ObjectMapper", "com.fasterxml.jackson.core:jackson-databind");
    }

    @Override
    public Set<String> propertyNames() {
        return ZooKeeperLeaseProps.NAMES;
    }

    @Override
    protected ZooKeeperStoreSettings parseStore(final PropertyReader reader, final LeaseRequest request, final LeaseSettings lease) {
        return ZooKeeperLeaseProps.parse(reader, request.clusterRegistry(), request.modeResolved(), lease.acquireTimeoutMillis());
    }

    @Override
    protected String scopeOf(final ZooKeeperStoreSettings store) {
        return store.serverLists() + "|" + store.namespace();
    }

    @Override
    public StoreOperations operations() {
        return new ZooKeeperStoreOperations();
    }

    @Override
    protected LeaseStore openStore(final ZooKeeperStoreSettings store) {
        return new ZooKeeperLeaseStore(store);
    }
}
