package org.snowkey.lease;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.lease.store.LeaseRecord;

/**
 * Attack on today's release guard: a renewal whose compare-and-set was definitively REJECTED (answered with
 * Optional.empty(), never applied) stays in unconfirmedWrites. When an operator's repair-acl writes a record equal to it
 * (repair: reservedUntil = now + lease duration, expiresAt = max(expiresAt, that); a renewal in the same millisecond
 * computes the very same record), the holder adopts the repair as its own write, forgets the reservation the repair
 * raised, and its release writes only its high-water mark, below the repaired reservation.
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
        owned.sending(renewal);
        // store.compareAndSet(renewal, 1) answers Optional.empty(): not applied. recoverFromLostCompareAndSet reads the repair.
        assertTrue(owned.isOwnRecord(repaired));
        owned.adopt(repaired, 2);
        long highWater = heldUntil - 10_000;
        long released = owned.releasedReservation(repaired, highWater);
        assertTrue(released >= repaired.reservedUntil(), "the release writes " + released + ", below the reservation the repair raised to "
                + repaired.reservedUntil() + " (the rejected renewal was taken for this process's own write)");
    }
}
