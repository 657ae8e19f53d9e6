package org.snowkey.lease.store.zookeeper;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.lease.UnusablePoolException;
import org.snowkey.lease.store.CorruptLeaseRecordException;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.LeaseRecordJson;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.lease.store.LeaseStoreUnavailableException;
import org.snowkey.lease.store.StoredLease;
import org.snowkey.store.zookeeper.ZooKeeperClients;
import org.snowkey.store.zookeeper.ZooKeeperStoreSettings;

/**
 * Lease records as persistent ZooKeeper nodes {@code /<namespace>/snowkey/<pool>/workers/<workerId>} holding JSON;
 * the store version is the node's data version, so compare-and-set is {@code setData().withVersion(v)}.
 *
 * <p>With a digest, every node this store creates (parents included) carries an ACL that gives everyone read
 * access (operators can list leases) and only the digest user write and delete access, so that other clients of
 * the ensemble cannot rewrite or remove leases. Before a pool's first use, every node of the pool is checked for that
 * ACL (see {@link LeaseNodeAcls}): a path someone else prepared is refused, not trusted.
 *
 * <p>Persistent nodes, not ephemeral ones: a lease must outlive a ZooKeeper session (a holder keeps issuing
 * through a short outage), and the record must keep {@code reservedUntil} after its holder died.
 */
public final class ZooKeeperLeaseStore implements LeaseStore {

    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperLeaseStore.class);

    private final ZooKeeperStoreSettings settings;

    private final CuratorFramework client;

    private final String root;

    /** Checks the ACL of the lease nodes when a digest is set; null without one (the nodes are open by design). */
    private final LeaseNodeAcls acls;

    /** Pools whose nodes passed the ACL check; each pool is checked once, before its first use. */
    private final Set<String> verifiedPools = ConcurrentHashMap.newKeySet();

    /** Starts the client; connecting happens in the background and each operation waits for it up to the connection timeout. */
    public ZooKeeperLeaseStore(final ZooKeeperStoreSettings settings) {
        this(settings, ZooKeeperClients.start(settings));
    }

    /**
     * The store over a client started from {@code settings} elsewhere (the fault sweeps' clients over failing handles);
     * the store owns it and closes it.
     */
    ZooKeeperLeaseStore(final ZooKeeperStoreSettings settings, final CuratorFramework client) {
        this.settings = settings;
        this.root = "/" + settings.namespace() + "/snowkey";
        this.client = client;
        acls = settings.digest() == null ? null : new LeaseNodeAcls(client, settings.digest());
    }

    /**
     * Before the first use of a pool with a digest set: refuses lease nodes that anyone but the digest user may change
     * (see {@link LeaseNodeAcls}). Afterwards nobody else can create, change or delete a node of the pool.
     */
    private void verifyAcls(final String pool) {
        if (acls == null || verifiedPools.contains(pool)) {
            return;
        }
        try {
            acls.verify(root, pool);
        } catch (final UnusablePoolException ex) {
            throw ex;
        } catch (final Exception ex) {
            throw translate("check the ACLs of " + workers(pool), ex);
        }
        verifiedPools.add(pool);
    }

    @Override
    public String describe() {
        return "zookeeper " + settings.serverLists() + " " + root;
    }

    @Override
    public String locationOf(final String pool, final int workerId) {
        return "zookeeper " + settings.serverLists() + " node " + path(pool, workerId);
    }

    private String workers(final String pool) {
        return root + "/" + pool + "/workers";
    }

    String path(final String pool, final int workerId) {
        return workers(pool) + "/" + workerId;
    }

    @Override
    public Optional<StoredLease> read(final String pool, final int workerId) {
        verifyAcls(pool);
        String path = path(pool, workerId);
        try {
            Stat stat = new Stat();
            byte[] data = client.getData().storingStatIn(stat).forPath(path);
            return Optional.of(new StoredLease(LeaseRecordJson.read(locationOf(pool, workerId), pool, workerId, data), stat.getVersion()));
        } catch (final KeeperException.NoNodeException ex) {
            return Optional.empty();
        } catch (final CorruptLeaseRecordException ex) {
            throw ex;
        } catch (final Exception ex) {
            throw translate("read " + path, ex);
        }
    }

    @Override
    public PoolListing list(final String pool) {
        verifyAcls(pool);
        List<String> children;
        try {
            children = client.getChildren().forPath(workers(pool));
        } catch (final KeeperException.NoNodeException ex) {
            return new PoolListing(Map.of(), Map.of());
        } catch (final Exception ex) {
            throw translate("list " + workers(pool), ex);
        }
        Map<Integer, StoredLease> leases = new TreeMap<>();
        Map<Integer, CorruptLeaseRecordException> corrupt = new TreeMap<>();
        for (String each : children) {
            int workerId;
            try {
                workerId = Integer.parseInt(each);
            } catch (final NumberFormatException ex) {
                LOG.warn("SnowKey ignores node {}/{}: not a worker id", workers(pool), each);
                continue;
            }
            try {
                read(pool, workerId).ifPresent(stored -> leases.put(workerId, stored));
            } catch (final CorruptLeaseRecordException ex) {
                corrupt.put(workerId, ex);
            }
        }
        return new PoolListing(leases, corrupt);
    }

    @Override
    public Optional<Long> create(final LeaseRecord record) {
        verifyAcls(record.pool());
        String path = path(record.pool(), record.workerId());
        try {
            client.create().creatingParentsIfNeeded().forPath(path, LeaseRecordJson.write(record));
            // A created node has data version 0.
            return Optional.of(0L);
        } catch (final KeeperException.NodeExistsException ex) {
            return Optional.empty();
        } catch (final Exception ex) {
            throw translate("create " + path, ex);
        }
    }

    @Override
    public Optional<Long> compareAndSet(final LeaseRecord record, final long expectedStoreVersion) {
        verifyAcls(record.pool());
        String path = path(record.pool(), record.workerId());
        try {
            Stat stat = client.setData().withVersion(Math.toIntExact(expectedStoreVersion)).forPath(path, LeaseRecordJson.write(record));
            return Optional.of((long) stat.getVersion());
        } catch (final KeeperException.BadVersionException | KeeperException.NoNodeException ex) {
            return Optional.empty();
        } catch (final Exception ex) {
            throw translate("update " + path, ex);
        }
    }

    @Override
    public boolean delete(final String pool, final int workerId, final long expectedStoreVersion) {
        String path = path(pool, workerId);
        try {
            client.delete().withVersion(Math.toIntExact(expectedStoreVersion)).forPath(path);
            return true;
        } catch (final KeeperException.BadVersionException | KeeperException.NoNodeException ex) {
            return false;
        } catch (final Exception ex) {
            throw translate("delete " + path, ex);
        }
    }

    /**
     * Connection trouble becomes {@link LeaseStoreUnavailableException} (retried by the protocol); a missing
     * permission is a configuration error and says which prop to check.
     */
    private RuntimeException translate(final String operation, final Exception ex) {
        if (ex instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            return new LeaseStoreUnavailableException("interrupted during " + operation + " on " + describe(), ex);
        }
        if (ex instanceof KeeperException.NoAuthException) {
            return new IllegalStateException("SnowKey is not allowed to " + operation + " on zookeeper " + settings.serverLists()
                    + ": the lease nodes carry an ACL; set zookeeper-digest to the user:password they were created with", ex);
        }
        if (ex instanceof KeeperException keeper && isConnectivity(keeper.code())) {
            return new LeaseStoreUnavailableException("zookeeper " + settings.serverLists() + " is unreachable (" + keeper.code() + " during " + operation
                    + ", connection timeout " + settings.connectionTimeoutMillis() + " ms)", ex);
        }
        if (ex instanceof IllegalStateException && !client.getState().equals(org.apache.curator.framework.imps.CuratorFrameworkState.STARTED)) {
            return new LeaseStoreUnavailableException("the zookeeper client of " + describe() + " is closed", ex);
        }
        if (ex instanceof KeeperException) {
            return new LeaseStoreUnavailableException("zookeeper " + settings.serverLists() + " failed during " + operation + ": " + ex, ex);
        }
        // Not a registry condition that passes with time: fail at once rather than retry until the timeout.
        return new IllegalStateException("SnowKey failed to " + operation + " on zookeeper " + settings.serverLists() + ": " + ex, ex);
    }

    private static boolean isConnectivity(final KeeperException.Code code) {
        return code == KeeperException.Code.CONNECTIONLOSS || code == KeeperException.Code.SESSIONEXPIRED || code == KeeperException.Code.OPERATIONTIMEOUT
                || code == KeeperException.Code.SESSIONMOVED || code == KeeperException.Code.RECONFIGINPROGRESS || code == KeeperException.Code.NEWCONFIGNOQUORUM;
    }

    /**
     * Gives every node of the pool SnowKey's ACL and re-reserves records that others could have written; an
     * operator's deliberate repair (see {@link LeaseNodeAcls#repair}).
     *
     * @return the number of nodes changed
     */
    public int repairAcls(final String pool, final long nowMillis, final long leaseDurationMillis, final PrintStream out) {
        if (acls == null) {
            throw new IllegalStateException("repairing the ACL of the lease nodes needs the digest (zookeeper-digest) they are to be locked with");
        }
        try {
            int changed = acls.repair(root, pool, nowMillis, leaseDurationMillis, out);
            verifiedPools.remove(pool);
            return changed;
        } catch (final Exception ex) {
            throw translate("repair the ACLs of " + workers(pool), ex);
        }
    }

    /** The Curator client, for the operations CLI and tests. */
    public CuratorFramework client() {
        return client;
    }

    public ZooKeeperStoreSettings settings() {
        return settings;
    }

    @Override
    public void close() {
        client.close();
    }
}
