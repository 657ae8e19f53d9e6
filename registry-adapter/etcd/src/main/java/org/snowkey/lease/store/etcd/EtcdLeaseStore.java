package org.snowkey.lease.store.etcd;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.lease.store.CorruptLeaseRecordException;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.LeaseRecordJson;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.lease.store.LeaseStoreUnavailableException;
import org.snowkey.lease.store.StoredLease;
import org.snowkey.store.StoreUnavailableException;
import org.snowkey.store.etcd.EtcdClient;
import org.snowkey.store.etcd.EtcdKeyValue;
import org.snowkey.store.etcd.EtcdTxn;

/**
 * Lease records as etcd keys {@code <namespace>/snowkey/<pool>/workers/<workerId>} holding the same JSON as the
 * ZooKeeper store's nodes. The store version is the key's {@code mod_revision}; every write is one transaction
 * comparing it: a claim of a number never used compares that the key is absent, a takeover, renewal or release that
 * its {@code mod_revision} is still the one read, a manual delete likewise. A transaction whose compare fails changed
 * nothing: someone else wrote the record.
 *
 * <p>No etcd lease (TTL) is attached to a record, on purpose: a record that expired away with its TTL would take its
 * {@code reservedUntil} with it, the high-water mark every successor must start above, and a paused or partitioned
 * holder could then collide with a successor starting at its own clock. Expiry is the protocol's {@code expiresAt},
 * judged by the successor; a record stays until an operator deletes it (docs/design.md, "Worker id leases").
 */
public final class EtcdLeaseStore implements LeaseStore {

    private static final Logger LOG = LoggerFactory.getLogger(EtcdLeaseStore.class);

    private final EtcdClient client;

    private final String root;

    public EtcdLeaseStore(final EtcdClient client) {
        this.client = client;
        this.root = client.settings().root();
    }

    @Override
    public String describe() {
        return client.describe() + " " + root;
    }

    @Override
    public String locationOf(final String pool, final int workerId) {
        return client.describe() + " key " + key(pool, workerId);
    }

    private String workers(final String pool) {
        return root + "/" + pool + "/workers/";
    }

    String key(final String pool, final int workerId) {
        return workers(pool) + workerId;
    }

    @Override
    public Optional<StoredLease> read(final String pool, final int workerId) {
        try {
            return client.get(key(pool, workerId)).map(kv -> stored(pool, workerId, kv));
        } catch (final StoreUnavailableException ex) {
            throw unavailable(ex);
        }
    }

    private StoredLease stored(final String pool, final int workerId, final EtcdKeyValue kv) {
        return new StoredLease(LeaseRecordJson.read(locationOf(pool, workerId), pool, workerId, kv.value()), kv.modRevision());
    }

    @Override
    public PoolListing list(final String pool) {
        Map<Integer, StoredLease> leases = new TreeMap<>();
        Map<Integer, CorruptLeaseRecordException> corrupt = new TreeMap<>();
        String prefix = workers(pool);
        try {
            for (EtcdKeyValue each : client.range(prefix, 0, false, false)) {
                String name = each.key().substring(prefix.length());
                int workerId;
                try {
                    workerId = Integer.parseInt(name);
                } catch (final NumberFormatException ex) {
                    LOG.warn("SnowKey ignores etcd key {}: not a worker id", each.key());
                    continue;
                }
                if (workerId < 0 || !Integer.toString(workerId).equals(name)) {
                    LOG.warn("SnowKey ignores etcd key {}: not a worker id", each.key());
                    continue;
                }
                try {
                    leases.put(workerId, stored(pool, workerId, each));
                } catch (final CorruptLeaseRecordException ex) {
                    corrupt.put(workerId, ex);
                }
            }
        } catch (final StoreUnavailableException ex) {
            throw unavailable(ex);
        }
        return new PoolListing(leases, corrupt);
    }

    @Override
    public Optional<Long> create(final LeaseRecord record) {
        String key = key(record.pool(), record.workerId());
        return write(new EtcdTxn().ifAbsent(key).put(key, LeaseRecordJson.write(record)));
    }

    @Override
    public Optional<Long> compareAndSet(final LeaseRecord record, final long expectedStoreVersion) {
        if (expectedStoreVersion < 1) {
            // etcd compares an absent key's mod_revision as 0, so version 0 would create the record; no stored record has it.
            return Optional.empty();
        }
        String key = key(record.pool(), record.workerId());
        return write(new EtcdTxn().ifModRevision(key, expectedStoreVersion).put(key, LeaseRecordJson.write(record)));
    }

    @Override
    public boolean delete(final String pool, final int workerId, final long expectedStoreVersion) {
        if (expectedStoreVersion < 1) {
            return false;
        }
        String key = key(pool, workerId);
        return write(new EtcdTxn().ifModRevision(key, expectedStoreVersion).delete(key)).isPresent();
    }

    /** The new mod revision of the key (the transaction's revision), or empty when its compare failed. */
    private Optional<Long> write(final EtcdTxn txn) {
        try {
            EtcdTxn.Result result = client.txn(txn);
            return result.succeeded() ? Optional.of(result.revision()) : Optional.empty();
        } catch (final StoreUnavailableException ex) {
            throw unavailable(ex);
        }
    }

    private static LeaseStoreUnavailableException unavailable(final StoreUnavailableException ex) {
        return new LeaseStoreUnavailableException(ex.getMessage(), ex);
    }

    public EtcdClient client() {
        return client;
    }

    @Override
    public void close() {
        client.close();
    }

    @Override
    public String toString() {
        return "EtcdLeaseStore[" + describe() + "]";
    }
}
