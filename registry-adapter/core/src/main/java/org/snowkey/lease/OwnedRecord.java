package org.snowkey.lease;

import java.util.Objects;

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

    /** Read on the hot path without the lock: the expiry as last written durably. */
    private volatile long expiresAt;

    /**
     * Set when the lease saw this record expire. Its record may still be ours, and a renewal that was on its way may
     * even have extended it since: the lease gives it back before it claims again, or the number stays out of use.
     */
    private volatile boolean expiredUnreleased;

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
