package org.snowkey.lease.store.zookeeper.cluster;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.shardingsphere.infra.instance.ComputeNodeInstanceContext;
import org.apache.shardingsphere.mode.event.DataChangedEvent;
import org.apache.shardingsphere.mode.repository.cluster.ClusterPersistRepository;
import org.apache.shardingsphere.mode.repository.cluster.ClusterPersistRepositoryConfiguration;
import org.apache.shardingsphere.mode.repository.cluster.listener.DataChangedEventListener;
import org.apache.shardingsphere.mode.repository.cluster.lock.holder.DistributedLockHolder;
import org.apache.shardingsphere.mode.repository.cluster.lock.impl.props.DefaultLockTypedProperties;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * TEST FIXTURE, not a product: a minimal Curator-backed ShardingSphere 5.5.2 cluster repository of type
 * {@code ZooKeeper}, because the official 5.5.x ZooKeeper repository jar is not available here. It keeps
 * ShardingSphere's data under the mode namespace ({@code /<namespace>/...}), exactly where the real repository
 * does, so SnowKey's leases ({@code /<namespace>/snowkey/...}) share the ensemble and namespace with the mode.
 *
 * <p>The one copy: this module's tests jar carries it (with its service file) to the Spring autoconfigure tests.
 */
public final class CuratorClusterPersistRepositoryFixture implements ClusterPersistRepository {

    private final Map<String, CuratorCache> caches = new ConcurrentHashMap<>();

    private CuratorFramework client;

    private DistributedLockHolder lockHolder;

    @Override
    public void init(final ClusterPersistRepositoryConfiguration config, final ComputeNodeInstanceContext computeNodeInstanceContext) {
        client = CuratorFrameworkFactory.builder().connectString(config.getServerLists()).namespace(config.getNamespace())
                .retryPolicy(new ExponentialBackoffRetry(100, 3)).sessionTimeoutMs(30_000).connectionTimeoutMs(10_000).build();
        client.start();
        try {
            if (!client.blockUntilConnected(30, java.util.concurrent.TimeUnit.SECONDS)) {
                throw new IllegalStateException("fixture repository could not connect to " + config.getServerLists());
            }
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
        lockHolder = new DistributedLockHolder("default", this, new DefaultLockTypedProperties(new Properties()));
    }

    @Override
    public String query(final String key) {
        try {
            return new String(client.getData().forPath(key), StandardCharsets.UTF_8);
        } catch (final KeeperException.NoNodeException ex) {
            return null;
        } catch (final Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public List<String> getChildrenKeys(final String key) {
        try {
            List<String> result = new ArrayList<>(client.getChildren().forPath(key));
            // The real repository returns children newest-first.
            result.sort(Comparator.reverseOrder());
            return result;
        } catch (final KeeperException.NoNodeException ex) {
            return Collections.emptyList();
        } catch (final Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public boolean isExisted(final String key) {
        try {
            return client.checkExists().forPath(key) != null;
        } catch (final Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public void persist(final String key, final String value) {
        try {
            if (isExisted(key)) {
                client.setData().forPath(key, bytes(value));
            } else {
                client.create().creatingParentsIfNeeded().forPath(key, bytes(value));
            }
        } catch (final KeeperException.NodeExistsException ex) {
            update(key, value);
        } catch (final Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public void update(final String key, final String value) {
        try {
            client.setData().forPath(key, bytes(value));
        } catch (final Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public void persistEphemeral(final String key, final String value) {
        try {
            if (isExisted(key)) {
                client.delete().deletingChildrenIfNeeded().forPath(key);
            }
            client.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(key, bytes(value));
        } catch (final Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public boolean persistExclusiveEphemeral(final String key, final String value) {
        try {
            client.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(key, bytes(value));
            return true;
        } catch (final KeeperException.NodeExistsException ex) {
            return false;
        } catch (final Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public DistributedLockHolder getDistributedLockHolder() {
        return lockHolder;
    }

    @Override
    public void delete(final String key) {
        try {
            if (isExisted(key)) {
                client.delete().deletingChildrenIfNeeded().forPath(key);
            }
        } catch (final KeeperException.NoNodeException ignored) {
            // Deleted meanwhile: the goal is reached.
        } catch (final Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public void watch(final String key, final DataChangedEventListener listener) {
        CuratorCache cache = CuratorCache.build(client, key);
        cache.listenable().addListener(CuratorCacheListener.builder().forAll((type, oldData, data) -> {
            switch (type) {
                case NODE_CREATED -> listener.onChange(new DataChangedEvent(data.getPath(), text(data.getData()), DataChangedEvent.Type.ADDED));
                case NODE_CHANGED -> listener.onChange(new DataChangedEvent(data.getPath(), text(data.getData()), DataChangedEvent.Type.UPDATED));
                case NODE_DELETED -> listener.onChange(new DataChangedEvent(oldData.getPath(), text(oldData.getData()), DataChangedEvent.Type.DELETED));
                default -> {
                }
            }
        }).build());
        CuratorCache previous = caches.put(key, cache);
        if (previous != null) {
            previous.close();
        }
        cache.start();
    }

    @Override
    public void removeDataListener(final String key) {
        CuratorCache cache = caches.remove(key);
        if (cache != null) {
            cache.close();
        }
    }

    @Override
    public void close() {
        caches.values().forEach(CuratorCache::close);
        caches.clear();
        if (client != null) {
            client.close();
        }
    }

    @Override
    public String getType() {
        return "ZooKeeper";
    }

    private static byte[] bytes(final String value) {
        return value == null ? new byte[0] : value.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(final byte[] data) {
        return data == null ? "" : new String(data, StandardCharsets.UTF_8);
    }
}
