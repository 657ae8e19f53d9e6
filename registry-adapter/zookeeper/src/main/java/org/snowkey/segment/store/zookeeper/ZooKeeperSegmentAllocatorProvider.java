package org.snowkey.segment.store.zookeeper;

import java.util.Optional;

import org.apache.curator.framework.CuratorFramework;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.keygen.segment.StartValues;
import org.snowkey.keygen.segment.runtime.OpenAllocator;
import org.snowkey.keygen.segment.runtime.PreparedAllocator;
import org.snowkey.keygen.segment.runtime.SegmentBackendSettings;
import org.snowkey.segment.store.StoreSegmentAllocatorProvider;
import org.snowkey.store.zookeeper.ZooKeeperClients;
import org.snowkey.store.zookeeper.ZooKeeperLibraries;
import org.snowkey.store.zookeeper.ZooKeeperStoreProps;
import org.snowkey.store.zookeeper.ZooKeeperStoreSettings;

/**
 * {@code segment-allocator: zookeeper}, and the allocator of ShardingSphere Cluster mode with a ZooKeeper repository
 * (no props needed there): ranges from a counter node per key, next to the worker-id leases, with the same
 * {@code zookeeper-*} props. Parsing and preparing connect to nothing; the client connects in the background.
 */
public final class ZooKeeperSegmentAllocatorProvider extends StoreSegmentAllocatorProvider<ZooKeeperSegmentAllocatorProvider.Parsed> {

    public static final String NAME = "zookeeper";

    /** The longest a ZooKeeper request may wait for a connection or an answer; fetches retry in the background meanwhile. */
    private static final long MAX_CONNECTION_TIMEOUT_MILLIS = 5_000L;

    public ZooKeeperSegmentAllocatorProvider() {
        super(ZooKeeperLibraries.STORE, "ZooKeeper", Parsed.class);
    }

    @Override
    protected Parsed parseStore(final PropertyReader reader, final SegmentSettings sequence) {
        // Half the fetch timeout at most, so that an INSERT waiting for a range while ZooKeeper is unreachable fails with ZooKeeper's error.
        return new Parsed(ZooKeeperStoreProps.parse(reader), Math.min(MAX_CONNECTION_TIMEOUT_MILLIS, sequence.fetchTimeoutMillis() / 2));
    }

    @Override
    protected PreparedAllocator prepareStore(final Parsed parsed, final Optional<ClusterRegistry> cluster) {
        return new Prepared(ZooKeeperStoreProps.resolve(parsed.configured(), cluster, parsed.connectionTimeoutMillis()));
    }

    record Parsed(ZooKeeperStoreProps.Configured configured, long connectionTimeoutMillis) implements SegmentBackendSettings {
    }

    private record Prepared(ZooKeeperStoreSettings store) implements PreparedAllocator {

        @Override
        public String scopeKey() {
            return NAME + "|" + store.serverLists() + "|" + store.namespace();
        }

        @Override
        public OpenAllocator open(final String owner, final StartValues starts) {
            CuratorFramework client = ZooKeeperClients.start(store);
            return openOn(client, client::close, started -> new ZooKeeperRangeAllocator(started, store.namespace(), owner, starts, store.digest()));
        }

        /** The settings' own toString hides the digest's password. */
        @Override
        public String toString() {
            return "ZooKeeperSegmentAllocatorProvider.Prepared[" + store + "]";
        }
    }
}
