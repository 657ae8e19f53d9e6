package org.snowkey.lease.store.etcd;

import java.util.Optional;

import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.lease.StoreLeaseProvider;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.segment.store.SegmentKeys;
import org.snowkey.store.etcd.EtcdClient;
import org.snowkey.store.etcd.EtcdLibraries;
import org.snowkey.store.etcd.EtcdStoreProps;
import org.snowkey.store.etcd.EtcdStoreSettings;

/**
 * {@code lease-registry: etcd}, and the backend of ShardingSphere Cluster mode with an etcd repository (endpoints and
 * namespace from the mode). {@link #parse} and {@link #prepare} only validate (reading a password's variable or file);
 * {@link PreparedLease#open()} builds the HTTP client, and the first grant request acquires.
 */
public final class EtcdLeaseProvider extends StoreLeaseProvider<EtcdStoreProps.Configured, EtcdStoreSettings> {

    public static final String REGISTRY = "etcd";

    public EtcdLeaseProvider() {
        super(EtcdLibraries.STORE);
    }

    @Override
    protected EtcdStoreProps.Configured parseStore(final PropertyReader reader, final LeaseTerms terms) {
        SegmentKeys.checkLeasePoolBesideSegments(terms.pool());
        return EtcdStoreProps.parse(reader, System.getenv());
    }

    @Override
    protected EtcdStoreSettings complete(final EtcdStoreProps.Configured parsed, final Optional<ClusterRegistry> cluster, final LeaseTerms terms) {
        return EtcdStoreProps.resolve(parsed, cluster, terms.acquireTimeoutMillis());
    }

    @Override
    protected String scopeOf(final EtcdStoreSettings store) {
        return store.endpointText() + "|" + store.namespace();
    }

    @Override
    protected LeaseStore openStore(final EtcdStoreSettings store) {
        return new EtcdLeaseStore(new EtcdClient(store));
    }
}
