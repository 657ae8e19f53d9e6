package org.snowkey.lease.store.zookeeper;

import java.util.Optional;

import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.lease.PreparedLease;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.lease.StoreLeaseProvider;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.segment.store.SegmentKeys;
import org.snowkey.store.zookeeper.ZooKeeperLibraries;
import org.snowkey.store.zookeeper.ZooKeeperStoreProps;
import org.snowkey.store.zookeeper.ZooKeeperStoreSettings;

/**
 * {@code lease-registry: zookeeper}, and the backend of ShardingSphere Cluster mode with a ZooKeeper repository.
 * {@link #parse} and {@link #prepare} only validate; {@link PreparedLease#open()} starts the Curator client, and the first grant
 * request acquires.
 */
public final class ZooKeeperLeaseProvider extends StoreLeaseProvider<ZooKeeperStoreProps.Configured, ZooKeeperStoreSettings> {

    public static final String REGISTRY = "zookeeper";

    public ZooKeeperLeaseProvider() {
        super(ZooKeeperLibraries.STORE);
    }

    @Override
    protected ZooKeeperStoreProps.Configured parseStore(final PropertyReader reader, final LeaseTerms terms) {
        SegmentKeys.checkLeasePoolBesideSegments(terms.pool());
        return ZooKeeperStoreProps.parse(reader);
    }

    /** Fills in from a ZooKeeper Cluster mode what the props left unset; nothing is parsed again. */
    @Override
    protected ZooKeeperStoreSettings complete(final ZooKeeperStoreProps.Configured parsed, final Optional<ClusterRegistry> cluster, final LeaseTerms terms) {
        return ZooKeeperStoreProps.resolve(parsed, cluster, terms.acquireTimeoutMillis());
    }

    @Override
    protected String scopeOf(final ZooKeeperStoreSettings store) {
        return store.serverLists() + "|" + store.namespace();
    }

    @Override
    protected LeaseStore openStore(final ZooKeeperStoreSettings store) {
        return new ZooKeeperLeaseStore(store);
    }
}
