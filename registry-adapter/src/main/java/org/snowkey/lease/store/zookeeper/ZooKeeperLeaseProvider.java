package org.snowkey.lease.store.zookeeper;

import java.util.Properties;
import java.util.Set;

import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseBackendSettings;
import org.snowkey.keygen.lease.LeaseRequest;
import org.snowkey.keygen.lease.PreparedLease;
import org.snowkey.keygen.lease.WorkerLease;
import org.snowkey.keygen.lease.WorkerLeaseProvider;
import org.snowkey.lease.LeaseRuntimeOptions;
import org.snowkey.lease.LeaseSettings;
import org.snowkey.lease.LeasedWorkerLease;

/**
 * {@code lease-registry: zookeeper}, and the backend of ShardingSphere Cluster mode with a ZooKeeper repository.
 * {@link #parse} and {@link #prepare} only validate; {@link PreparedLease#open()} starts the Curator client, and the first grant
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
    public LeaseBackendSettings parse(final Properties props, final LeaseTerms terms) {
        return new Parsed(LeaseSettings.of(terms), ZooKeeperLeaseProps.parse(new PropertyReader(props)));
    }

    /** Fills in from the Cluster mode what the props left unset; nothing is parsed again. */
    @Override
    public PreparedLease prepare(final LeaseRequest request) {
        Parsed parsed = request.backend(Parsed.class);
        ZooKeeperStoreSettings store = ZooKeeperLeaseProps.resolve(parsed.configured(), request.clusterRegistry(), true, parsed.lease().acquireTimeoutMillis());
        return new Prepared(parsed.lease(), store, request.layout());
    }

    /** The ZooKeeper props as parsed once at start-up, before the mode is known. */
    private record Parsed(LeaseSettings lease, ZooKeeperLeaseProps.Configured configured) implements LeaseBackendSettings {
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
