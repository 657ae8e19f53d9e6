package org.snowkey.lease.store;

import org.snowkey.keygen.layout.IdLayout;

/**
 * One worker id's lease record as stored in a registry (docs/design.md, leases).
 *
 * @param pool the pool the number belongs to
 * @param workerId the number
 * @param owner the instance id of the holder (or of the last holder when released)
 * @param fencingToken bumped by every takeover; a holder's writes carry the token it acquired with
 * @param expiresAt epoch ms after which others may take the number over (liveness only)
 * @param reservedUntil the highest wall-clock ms the holder may issue; a successor starts above it
 * @param state HELD or RELEASED
 * @param layout the id layout of the writer, which every instance of the pool must share; null in records written
 *               before SnowKey stored it (unknown: the next writer adopts the number and writes its own)
 * @param incarnation a random nonce of the lease object (one process start, at least) that claimed the number, so
 *                    that two live processes with one {@code owner} never write equal claims; null in records of
 *                    SnowKey versions before it and in records written by hand or by tests of the store alone
 *                    (registry-adapter/docs/lease-safety.md, "Ambiguous writes")
 */
public record LeaseRecord(String pool, int workerId, String owner, long fencingToken, long expiresAt, long reservedUntil, State state, IdLayout layout,
                          String incarnation) {

    /** A record without an incarnation (written by an older SnowKey, by the operations tool's tests or by tests of the store alone). */
    public LeaseRecord(final String pool, final int workerId, final String owner, final long fencingToken, final long expiresAt, final long reservedUntil,
                       final State state, final IdLayout layout) {
        this(pool, workerId, owner, fencingToken, expiresAt, reservedUntil, state, layout, null);
    }

    /** A record that does not say its layout (written by an older SnowKey, or by tests of the store alone). */
    public LeaseRecord(final String pool, final int workerId, final String owner, final long fencingToken, final long expiresAt, final long reservedUntil,
                       final State state) {
        this(pool, workerId, owner, fencingToken, expiresAt, reservedUntil, state, null, null);
    }

    /** Whether a holder claims the number. An expired HELD record is free to take over too. */
    public enum State {
        HELD,
        RELEASED
    }

    /** True when a new holder may claim the number at {@code nowMillis}. */
    public boolean isClaimable(final long nowMillis) {
        return state == State.RELEASED || expiresAt < nowMillis;
    }

    /**
     * This record in another state, every other field kept. Tools that re-write a record derive it with these
     * methods, never by listing the fields again: a field left out (the layout) silently weakened a guard.
     */
    public LeaseRecord withState(final State newState) {
        return new LeaseRecord(pool, workerId, owner, fencingToken, expiresAt, reservedUntil, newState, layout, incarnation);
    }

    /** This record with another expiry and reservation, every other field kept. */
    public LeaseRecord withTimes(final long newExpiresAt, final long newReservedUntil) {
        return new LeaseRecord(pool, workerId, owner, fencingToken, newExpiresAt, newReservedUntil, state, layout, incarnation);
    }

    /** This record with another incarnation (null: none), every other field kept. */
    public LeaseRecord withIncarnation(final String newIncarnation) {
        return new LeaseRecord(pool, workerId, owner, fencingToken, expiresAt, reservedUntil, state, layout, newIncarnation);
    }

    /**
     * Whether this stored record is exactly {@code written}, a record this process wrote. A stored record without an
     * incarnation was kept by a store that cannot hold one (a JDBC table SnowKey may not add the column to) or written
     * by an older SnowKey: it is compared on every other field, the rule before incarnations existed (owner, fencing
     * token with its random step, times, layout). A record that carries another incarnation is never ours.
     */
    public boolean isExactly(final LeaseRecord written) {
        return equals(written) || incarnation == null && equals(written.withIncarnation(null));
    }

    /** This record without its layout, every other field kept (the operations tool's {@code --clear-layout}). */
    public LeaseRecord withoutLayout() {
        return new LeaseRecord(pool, workerId, owner, fencingToken, expiresAt, reservedUntil, state, null, incarnation);
    }

    /** The layout as stored text, or null when the record does not say. */
    public String layoutText() {
        return layout == null ? null : LayoutText.format(layout);
    }
}
