package org.snowkey.lease.simulation;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.StoredLease;

/**
 * The registry of a simulated schedule: an in-memory, linearizable store of lease records, one per number. It
 * also keeps what the invariants need to know and no real store would: which incarnation wrote each record last,
 * and the highest {@code reservedUntil} each grant (number and fencing token) ever made durable.
 */
final class SimStore {

    private final Map<Integer, Entry> records = new TreeMap<>();

    private final Map<GrantKey, Long> durableReservations = new HashMap<>();

    private long versions;

    Optional<StoredLease> read(final int workerId) {
        Entry entry = records.get(workerId);
        return entry == null ? Optional.empty() : Optional.of(new StoredLease(entry.record, entry.version));
    }

    Map<Integer, StoredLease> list() {
        Map<Integer, StoredLease> result = new TreeMap<>();
        records.forEach((workerId, entry) -> result.put(workerId, new StoredLease(entry.record, entry.version)));
        return result;
    }

    Optional<Long> create(final LeaseRecord record, final Writer writer) {
        if (records.containsKey(record.workerId())) {
            return Optional.empty();
        }
        return Optional.of(write(record, writer));
    }

    Optional<Long> compareAndSet(final LeaseRecord record, final long expectedVersion, final Writer writer) {
        Entry entry = records.get(record.workerId());
        if (entry == null || entry.version != expectedVersion) {
            return Optional.empty();
        }
        return Optional.of(write(record, writer));
    }

    boolean delete(final int workerId, final long expectedVersion) {
        Entry entry = records.get(workerId);
        if (entry == null || entry.version != expectedVersion) {
            return false;
        }
        records.remove(workerId);
        return true;
    }

    private long write(final LeaseRecord record, final Writer writer) {
        long version = ++versions;
        records.put(record.workerId(), new Entry(record, version, writer));
        if (record.state() == LeaseRecord.State.HELD) {
            durableReservations.merge(grantKey(record.workerId(), record.fencingToken()), record.reservedUntil(), Math::max);
        }
        return version;
    }

    /** The highest reservation the grant of that number and token made durable, or {@code Long.MIN_VALUE}. */
    long durableReservation(final int workerId, final long fencingToken) {
        return durableReservations.getOrDefault(grantKey(workerId, fencingToken), Long.MIN_VALUE);
    }

    /** The records as stored with their last writers, by number. */
    Map<Integer, Entry> entries() {
        return records;
    }

    private static GrantKey grantKey(final int workerId, final long fencingToken) {
        return new GrantKey(workerId, fencingToken);
    }

    /** One grant of a number: fencing tokens grow by random steps, too large to pack with the number into a long. */
    private record GrantKey(int workerId, long fencingToken) {
    }

    /** Who wrote a record: an instance id and its incarnation (a restart is a new incarnation). */
    record Writer(SimInstance instance, int incarnation) {
    }

    /** One stored record. */
    record Entry(LeaseRecord record, long version, Writer writer) {
    }
}
