package org.snowkey.segment.store.etcd;

import java.util.Optional;

import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.keygen.segment.StartValues;
import org.snowkey.keygen.segment.runtime.OpenAllocator;
import org.snowkey.keygen.segment.runtime.PreparedAllocator;
import org.snowkey.keygen.segment.runtime.SegmentBackendSettings;
import org.snowkey.segment.store.StoreSegmentAllocatorProvider;
import org.snowkey.store.etcd.EtcdClient;
import org.snowkey.store.etcd.EtcdLibraries;
import org.snowkey.store.etcd.EtcdStoreProps;
import org.snowkey.store.etcd.EtcdStoreSettings;

/**
 * {@code segment-allocator: etcd}, and the allocator of ShardingSphere Cluster mode with an etcd repository
 * (endpoints and namespace from the mode): ranges from a counter key per sequence key, next to the worker-id leases,
 * with the same {@code etcd-*} props. Parsing and preparing connect to nothing.
 */
public final class EtcdSegmentAllocatorProvider extends StoreSegmentAllocatorProvider<EtcdSegmentAllocatorProvider.Parsed> {

    public static final String NAME = "etcd";

    public EtcdSegmentAllocatorProvider() {
        super(EtcdLibraries.STORE, "etcd", Parsed.class);
    }

    @Override
    protected Parsed parseStore(final PropertyReader reader, final SegmentSettings sequence) {
        // Half the fetch timeout at most, so that an INSERT waiting for a range while etcd is unreachable fails with etcd's error.
        return new Parsed(EtcdStoreProps.parse(reader, System.getenv()), sequence.fetchTimeoutMillis() / 2);
    }

    @Override
    protected PreparedAllocator prepareStore(final Parsed parsed, final Optional<ClusterRegistry> cluster) {
        return new Prepared(EtcdStoreProps.resolve(parsed.configured(), cluster, parsed.requestTimeoutBoundMillis()));
    }

    record Parsed(EtcdStoreProps.Configured configured, long requestTimeoutBoundMillis) implements SegmentBackendSettings {
    }

    private record Prepared(EtcdStoreSettings store) implements PreparedAllocator {

        @Override
        public String scopeKey() {
            return NAME + "|" + store.endpointText() + "|" + store.namespace();
        }

        @Override
        public OpenAllocator open(final String owner, final StartValues starts) {
            EtcdClient client = new EtcdClient(store);
            return openOn(client, client::close, opened -> new EtcdRangeAllocator(opened, owner, starts));
        }

        /** The settings' own toString hides the password. */
        @Override
        public String toString() {
            return "EtcdSegmentAllocatorProvider.Prepared[" + store + "]";
        }
    }
}
