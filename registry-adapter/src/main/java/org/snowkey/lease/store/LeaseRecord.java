package org.snowkey.lease.store;

/**
 * One worker id's lease record as stored in a registry (DESIGN section 3).
 *
 * @param pool the pool the number belongs to
 * @param workerId the number
 * @param owner the instance id of the holder (or of the last holder when released)
 * @param fencingToken bumped by every takeover; a holder's writes carry the token it acquired with
 * @param expiresAt epoch ms after which others may take the number over (liveness only)
 * @param reservedUntil the highest wall-clock ms the holder may issue; a successor starts above it
 * @param state HELD or RELEASED
 */
public record LeaseRecord(String pool, int workerId, String owner, long fencingToken, long expiresAt, long reservedUntil, State state) {

    /** Whether a holder claims the number. An expired HELD record is free to take over too. */
    public enum State {
        HELD,
        RELEASED
    }

    /** True when a new holder may claim the number at {@code nowMillis}. */
    public boolean isClaimable(final long nowMillis) {
        return state == State.RELEASED || expiresAt < nowMillis;
    }
}
