package org.snowkey.segment.store.zookeeper;

import java.util.Optional;
import java.util.Set;

import org.apache.curator.framework.CuratorFramework;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.segment.SegmentPropertyNames;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.keygen.segment.StartValues;
import org.snowkey.keygen.segment.runtime.OpenAllocator;
import org.snowkey.keygen.segment.runtime.PreparedAllocator;
import org.snowkey.keygen.segment.runtime.SegmentAllocatorProvider;
import org.snowkey.keygen.segment.runtime.SegmentBackendSettings;
import org.snowkey.store.zookeeper.ZooKeeperClients;
import org.snowkey.store.zookeeper.ZooKeeperLibraries;
import org.snowkey.store.zookeeper.ZooKeeperStoreProps;
import org.snowkey.store.zookeeper.ZooKeeperStoreSettings;

/**
 * {@code segment-allocator: zookeeper}, and the allocator of ShardingSphere Cluster mode with a ZooKeeper repository
 * (no props needed there): ranges from a counter node per key, next to the worker-id leases, with the same
 * {@code zookeeper-*} props. Parsing and preparing connect to nothing; the client connects in the background.
 */
public final class ZooKeeperSegmentAllocatorProvider implements SegmentAllocatorProvider {

    public static final String NAME = "zookeeper";

    /** The longest a ZooKeeper request may wait for a connection or an answer; fetches retry in the background meanwhile. */
    private static final long MAX_CONNECTION_TIMEOUT_MILLIS = 5_000L;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<String> propertyNames() {
        return ZooKeeperStoreProps.NAMES;
    }

    @Override
    public SegmentBackendSettings parse(final PropertyReader reader, final SegmentSettings sequence) {
        // Names Curator's or ZooKeeper's artifact at start-up when one is missing, as the lease backend does.
        ZooKeeperLibraries.REQUIRED.require(SegmentPropertyNames.ALLOCATOR + ": " + NAME);
        // Half the fetch timeout at most, so that an INSERT waiting for a range while ZooKeeper is unreachable fails with ZooKeeper's error.
        return new Parsed(ZooKeeperStoreProps.parse(reader), Math.min(MAX_CONNECTION_TIMEOUT_MILLIS, sequence.fetchTimeoutMillis() / 2));
    }

    @Override
    public PreparedAllocator prepare(final SegmentBackendSettings settings, final Optional<ClusterRegistry> cluster) {
        if (!(settings instanceof Parsed parsed)) {
            throw new IllegalArgumentException("segment settings " + settings + " were not parsed by the ZooKeeper allocator");
        }
        return new Prepared(ZooKeeperStoreProps.resolve(parsed.configured(), cluster, parsed.connectionTimeoutMillis()));
    }

    private record Parsed(ZooKeeperStoreProps.Configured configured, long connectionTimeoutMillis) implements SegmentBackendSettings {
    }

    private record Prepared(ZooKeeperStoreSettings store) implements PreparedAllocator {

        @Override
        public String scopeKey() {
            return NAME + "|" + store.serverLists() + "|" + store.namespace();
        }

        @Override
        public OpenAllocator open(final String owner, final StartValues starts) {
            CuratorFramework client = ZooKeeperClients.start(store);
            try {
                return OpenAllocator.of(new ZooKeeperRangeAllocator(client, store.namespace(), owner, starts, store.digest()), client::close);
            } catch (final RuntimeException | Error ex) {
                // Nobody else holds the client yet: left open, its threads would reconnect for ever after the failed open.
                client.close();
                throw ex;
            }
        }

        /** The settings' own toString hides the digest's password. */
        @Override
        public String toString() {
            return "ZooKeeperSegmentAllocatorProvider.Prepared[" + store + "]";
        }
    }
}
