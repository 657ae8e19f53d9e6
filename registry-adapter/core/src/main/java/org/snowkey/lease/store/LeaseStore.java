package org.snowkey.lease.store;

import java.util.List;
import java.util.Optional;

/**
 * The storage side of the lease protocol: read, create and compare-and-set lease records. The protocol itself
 * (choosing a number, floors, renewal, fencing, release) lives above this interface and is the same for every
 * registry; a store only has to make create and compare-and-set atomic.
 *
 * <p>Every method may throw {@link LeaseStoreUnavailableException} when the registry cannot be reached, and
 * {@link CorruptLeaseRecordException} when a record cannot be parsed.
 */
public interface LeaseStore extends AutoCloseable {

    /** Registry kind and location, never credentials: "zookeeper 127.0.0.1:2181 /governance_ds/snowkey". */
    String describe();

    /** Where one record lives, for messages: a node path or a table row. */
    String locationOf(String pool, int workerId);

    /** The record of a number, or empty when the number was never used in the pool. */
    Optional<StoredLease> read(String pool, int workerId);

    /**
     * Every record of the pool, by worker id. A corrupt record is returned as a {@link CorruptLeaseRecordException}
     * in {@code corrupt} rather than failing the whole listing, so that a scan can skip it and operators can see it.
     */
    PoolListing list(String pool);

    /**
     * Creates the record of a number that has none.
     *
     * @return the new store version, or empty when another process created it first
     */
    Optional<Long> create(LeaseRecord record);

    /**
     * Replaces the record if its store version is still {@code expectedStoreVersion}.
     *
     * @return the new store version, or empty when the record changed meanwhile (someone else wrote it)
     */
    Optional<Long> compareAndSet(LeaseRecord record, long expectedStoreVersion);

    /** Deletes a record by hand (operations tooling only), if its store version is still the expected one. */
    boolean delete(String pool, int workerId, long expectedStoreVersion);

    @Override
    void close();

    /**
     * The records of a pool.
     *
     * @param leases readable records, by worker id
     * @param corrupt records that could not be parsed, by worker id
     */
    record PoolListing(java.util.Map<Integer, StoredLease> leases, java.util.Map<Integer, CorruptLeaseRecordException> corrupt) {

        public List<Integer> usedWorkerIds() {
            java.util.TreeSet<Integer> ids = new java.util.TreeSet<>(leases.keySet());
            ids.addAll(corrupt.keySet());
            return List.copyOf(ids);
        }
    }
}
