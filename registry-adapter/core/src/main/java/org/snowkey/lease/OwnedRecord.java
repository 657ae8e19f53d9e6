package org.snowkey.lease;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;

import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.lease.store.LeaseRecord;

/**
 * The lease record this process owns in the store, as it last wrote it: the record and the store version that the
 * next renewal or release must compare against, and the grant the generator issues on while it is owned (one
 * fencing token of one worker id). Guarded by the owning lease's lock.
 */
final class OwnedRecord {

    private final LeaseGrant grant;

    private LeaseRecord record;

    private long storeVersion;

    /** Read without the lock (currentGrant): the expiry as last written durably. */
    private volatile long expiresAt;

    /**
     * Set when the lease saw this record expire. Its record may still be ours, and a renewal that was on its way may
     * even have extended it since: the lease gives it back before it claims again, or the number stays out of use.
     */
    private volatile boolean expiredUnreleased;

    /**
     * Writes of this record sent since the last confirmed one, whose answers never came: any one of them may have been
     * applied, so a stored record equal to one of them is this process's own write.
     */
    private final List<LeaseRecord> unconfirmedWrites = new ArrayList<>();

    /**
     * The highest reservation someone else wrote into this record while it stayed ours (an operator's ACL repair
     * raises it because the record may have been forged): a release keeps at least this, since a holder displaced by
     * the forgery may issue up to it.
     */
    private long reservedByOthers = Long.MIN_VALUE;

    OwnedRecord(final LeaseGrant grant, final LeaseRecord record, final long storeVersion) {
        this.grant = grant;
        this.record = record;
        this.storeVersion = storeVersion;
        this.expiresAt = record.expiresAt();
    }

    LeaseGrant grant() {
        return grant;
    }

    LeaseRecord record() {
        return record;
    }

    long storeVersion() {
        return storeVersion;
    }

    long expiresAt() {
        return expiresAt;
    }

    /** Records a durable write of this record. */
    void written(final LeaseRecord newRecord, final long newStoreVersion) {
        record = newRecord;
        storeVersion = newStoreVersion;
        expiresAt = newRecord.expiresAt();
        unconfirmedWrites.clear();
    }

    /**
     * Sends a write of this record through {@code compareAndSet} (the store's, against this record's store version).
     * Until it is confirmed, a stored record equal to it may be this process's own: its answer may be lost after it
     * was applied. A write the store refused was never applied, so it is forgotten at once: an operator's record equal
     * to it (a repair in the same millisecond) is someone else's.
     *
     * @return the new store version, empty when the store refused the write
     */
    Optional<Long> send(final LeaseRecord write, final BiFunction<LeaseRecord, Long, Optional<Long>> compareAndSet) {
        unconfirmedWrites.add(write);
        Optional<Long> version = compareAndSet.apply(write, storeVersion);
        if (version.isEmpty()) {
            unconfirmedWrites.remove(unconfirmedWrites.size() - 1);
        }
        return version;
    }

    /**
     * Adopts a stored record that {@link #isOwnRecord} accepted, at its store version. Unless it is a write of this
     * process whose answer was lost, someone else wrote it, and its reservation is kept by the release.
     */
    void adopt(final LeaseRecord stored, final long newStoreVersion) {
        if (!isOwnWrite(stored)) {
            reservedByOthers = Math.max(reservedByOthers, stored.reservedUntil());
        }
        written(stored, newStoreVersion);
    }

    private boolean isOwnWrite(final LeaseRecord stored) {
        return stored.isExactly(record) || unconfirmedWrites.stream().anyMatch(stored::isExactly);
    }

    /** The reservation a release of this record writes: the exact high-water mark, but never below what others reserved in it. */
    long releasedReservation(final LeaseRecord stored, final long highWater) {
        long othersReserved = isOwnWrite(stored) ? reservedByOthers : Math.max(reservedByOthers, stored.reservedUntil());
        return Math.max(highWater, othersReserved);
    }

    void markExpired() {
        expiredUnreleased = true;
    }

    /** True once after {@link #markExpired()}: the caller gives the record back. */
    boolean takeExpiredUnreleased() {
        boolean expired = expiredUnreleased;
        expiredUnreleased = false;
        return expired;
    }

    /**
     * True when a stored record is this one (same owner, incarnation and fencing token, still held). A stored record
     * without an incarnation (a store that cannot keep one) is judged by owner and token, as before incarnations.
     */
    boolean isOwnRecord(final LeaseRecord stored) {
        return stored.state() == LeaseRecord.State.HELD && stored.owner().equals(record.owner()) && stored.fencingToken() == record.fencingToken()
                && stored.workerId() == record.workerId() && (stored.incarnation() == null || Objects.equals(stored.incarnation(), record.incarnation()));
    }
}
