package org.snowkey.lease;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.lease.store.LeaseRecord;

/**
 * A renewal whose compare-and-set the store refused (never applied) is not this process's write. An operator's
 * repair-acl may write a record equal to it (repair: reservedUntil = now + lease duration, expiresAt = max(expiresAt,
 * that); a renewal in the same millisecond computes the very same record): taken for the holder's own write, the
 * repair's reservation would be forgotten, and the release would write only the high-water mark, below it.
 */
class OwnedRecordRejectedWriteTest {

    private static final IdLayout LAYOUT = IdLayout.of(3, 0, IdLayout.defaults().epochMillis());

    @Test
    void aRejectedRenewalEqualToTheRepairedRecordDoesNotHideTheRepair() {
        long duration = 60_000;
        long heldUntil = 1_000_000;
        LeaseRecord held = new LeaseRecord("p", 0, "holder", 7, heldUntil, heldUntil, LeaseRecord.State.HELD, LAYOUT, "inc-1");
        OwnedRecord owned = new OwnedRecord(new LeaseGrant(0, 0, heldUntil, "holder"), held, 1);
        long now = heldUntil - 30_000;
        // The operator's repair at `now` (before the holder's renewal reaches the store): version 1 -> 2.
        LeaseRecord repaired = held.withTimes(Math.max(held.expiresAt(), now + duration), now + duration);
        // The holder's renewal at the same millisecond, as LeasedWorkerLease.renew builds it, compared against version 1.
        long reservedUntil = Math.max(held.reservedUntil(), now + duration);
        LeaseRecord renewal = new LeaseRecord("p", 0, "holder", 7, reservedUntil, reservedUntil, LeaseRecord.State.HELD, LAYOUT, "inc-1");
        // The store refuses it (the repair moved the version on): not applied. recoverFromLostCompareAndSet reads the repair.
        assertTrue(owned.send(renewal, (write, expectedVersion) -> Optional.empty()).isEmpty());
        assertTrue(owned.isOwnRecord(repaired));
        owned.adopt(repaired, 2);
        long highWater = heldUntil - 10_000;
        long released = owned.releasedReservation(repaired, highWater);
        assertTrue(released >= repaired.reservedUntil(), "the release writes " + released + ", below the reservation the repair raised to "
                + repaired.reservedUntil() + " (the rejected renewal was taken for this process's own write)");
    }
}
