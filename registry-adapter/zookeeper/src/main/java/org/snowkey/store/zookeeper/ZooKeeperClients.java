package org.snowkey.store.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;

/**
 * The Curator client of the worker-id leases and of the segment allocator, built one way: both treat every failed
 * write as possibly applied and retry with their own deadlines, so the client itself never retries.
 */
public final class ZooKeeperClients {

    private ZooKeeperClients() {
    }

    /** Starts a client; it connects in the background and each operation waits for a connection up to the connection timeout. */
    public static CuratorFramework start(final ZooKeeperStoreSettings settings) {
        return start(settings, null);
    }

    /**
     * The same client over ZooKeeper handles made by {@code handles}: a seam for tests only (the store-call fault sweeps
     * give Curator handles that fail chosen calls, through the test fixture of this package), so that what is tested is
     * this configuration, not a copy of it.
     *
     * @param handles Curator's factory of ZooKeeper handles, or null for Curator's own
     */
    static CuratorFramework start(final ZooKeeperStoreSettings settings, final ZookeeperFactory handles) {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(settings.serverLists())
                .connectionTimeoutMs(settings.connectionTimeoutMillis())
                // Sessions do not matter to leases or ranges (persistent nodes); a long one spares reconnect work in an outage.
                .sessionTimeoutMs(60_000)
                // No retries inside Curator: callers retry with their own deadlines, and a hidden retry would double how
                // long one call can block while the registry is down.
                .retryPolicy(new RetryNTimes(0, 0))
                .zkClientConfig(clientConfig(settings));
        if (settings.digest() != null) {
            builder.authorization("digest", settings.digest().getBytes(StandardCharsets.UTF_8)).aclProvider(new DigestAclProvider(settings.digest()));
        }
        if (handles != null) {
            builder.zookeeperFactory(handles);
        }
        CuratorFramework client = builder.build();
        client.start();
        return client;
    }

    /**
     * A server that freezes with its connection open would otherwise hold a call (and the lease lock around it) until
     * the session times out: every request is bounded by the connection timeout instead. A timed-out write may still
     * have been applied; the lease protocol and the allocator treat every failed write as possibly applied.
     */
    private static ZKClientConfig clientConfig(final ZooKeeperStoreSettings settings) {
        ZKClientConfig config = new ZKClientConfig();
        config.setProperty(ZKClientConfig.ZOOKEEPER_REQUEST_TIMEOUT, Integer.toString(settings.connectionTimeoutMillis()));
        return config;
    }

    /** World may read, only the digest user may change or delete; applied to every node this client creates. */
    private static final class DigestAclProvider implements ACLProvider {

        private final List<ACL> acl;

        DigestAclProvider(final String digest) {
            acl = DigestNodeAcls.aclOf(digest);
        }

        @Override
        public List<ACL> getDefaultAcl() {
            return acl;
        }

        @Override
        public List<ACL> getAclForPath(final String path) {
            return acl;
        }
    }
}
