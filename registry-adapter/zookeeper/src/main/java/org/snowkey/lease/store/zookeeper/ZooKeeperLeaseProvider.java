package org.snowkey.lease.store.zookeeper;

import java.util.Set;

import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseRequest;
import org.snowkey.keygen.lease.PreparedLease;
import org.snowkey.keygen.lease.WorkerLease;
import org.snowkey.keygen.lease.WorkerLeaseProvider;
import org.snowkey.lease.LeaseRuntimeOptions;
import org.snowkey.lease.LeaseSettings;
import org.snowkey.lease.LeasedWorkerLease;

/**
 * {@code lease-registry: zookeeper}, and the backend of ShardingSphere Cluster mode with a ZooKeeper repository.
 * {@link #prepare} only validates; {@link PreparedLease#open()} starts the Curator client, and the first grant
 * request acquires.
 */
public final class ZooKeeperLeaseProvider implements WorkerLeaseProvider {

    public static final String REGISTRY = "zookeeper";

    @Override
    public String registry() {
        return REGISTRY;
    }

    @Override
    public Set<String> propertyNames() {
        return ZooKeeperLeaseProps.NAMES;
    }

    @Override
    public PreparedLease prepare(final LeaseRequest request) {
        PropertyReader reader = new PropertyReader(request.props());
        LeaseSettings lease = LeaseSettings.parse(reader);
        ZooKeeperStoreSettings store = ZooKeeperLeaseProps.parse(reader, request.clusterRegistry(), request.modeResolved(), lease.acquireTimeoutMillis());
        return new Prepared(lease, store, request.layout());
    }

    /** A validated ZooKeeper lease, not yet connected. */
    private record Prepared(LeaseSettings lease, ZooKeeperStoreSettings store, IdLayout layout) implements PreparedLease {

        @Override
        public String scopeKey() {
            return REGISTRY + "|" + store.serverLists() + "|" + store.namespace() + "|" + lease.pool();
        }

        @Override
        public WorkerLease open() {
            return new LeasedWorkerLease(new ZooKeeperLeaseStore(store), lease, layout, LeaseRuntimeOptions.defaults());
        }
    }
}
