package org.snowkey.keygen.lease;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One grant of a worker id (one uninterrupted tenure of it by this process): the range of timestamps this process may issue on it (docs/design.md, "Worker id leases").
 *
 * <p>The floor is fixed when the grant starts. The ceiling is the {@code reservedUntil} that the holder last
 * wrote durably; a lease backend raises it with {@link #extendCeiling} only after the registry confirmed the
 * write. A successor on the same worker id starts above the ceiling, so every id issued at or below it is
 * unique whatever happens to this process afterwards.
 *
 * <p>A revocation seals every counter attached ({@link HighWaterSource#revoked}), so the generator's id path reads
 * neither field; it reads the ceiling when its cached lower bound of the ceilings is passed. Both are plain volatile
 * fields.
 */
public final class LeaseGrant {

    /** The ceiling of a grant that no registry bounds (a static worker id). */
    public static final long UNBOUNDED = Long.MAX_VALUE;

    private final int workerId;

    private final long floorMillis;

    private final String holder;

    private volatile long ceilingMillis;

    private volatile String revocationReason;

    private final List<HighWaterSource> sources = new ArrayList<>();

    /** The highest millisecond the settled sources issued ({@link #settle}); guarded by this object's lock. */
    private long settledHighWater = Long.MIN_VALUE;

    private boolean sealed;

    /**
     * @param workerId the leased number
     * @param floorMillis the first wall-clock millisecond this grant may issue
     * @param ceilingMillis the last wall-clock millisecond it may issue, as durably reserved
     * @param holder what holds it and where, for messages: "worker id 7 of pool 'default' in zookeeper ..."
     */
    public LeaseGrant(final int workerId, final long floorMillis, final long ceilingMillis, final String holder) {
        this.workerId = workerId;
        this.floorMillis = floorMillis;
        this.ceilingMillis = ceilingMillis;
        this.holder = holder;
    }

    public int workerId() {
        return workerId;
    }

    public long floorMillis() {
        return floorMillis;
    }

    public long ceilingMillis() {
        return ceilingMillis;
    }

    public String holder() {
        return holder;
    }

    /** Raises the ceiling after a durable renewal; a lower value is ignored. */
    public void extendCeiling(final long newCeilingMillis) {
        synchronized (this) {
            if (newCeilingMillis > ceilingMillis) {
                ceilingMillis = newCeilingMillis;
            }
        }
    }

    /**
     * Stops issuing on this grant at once (lease lost, expired or released). The first reason wins. The counters
     * attached are told ({@link HighWaterSource#revoked}) and seal: a generator's id path reads its counter only, never
     * a holding's grant.
     */
    public void revoke(final String reason) {
        synchronized (this) {
            if (revocationReason == null) {
                revocationReason = reason;
                for (HighWaterSource each : sources) {
                    each.revoked();
                }
            }
        }
    }

    public boolean isRevoked() {
        return revocationReason != null;
    }

    /** Why issuing stopped, or null while the grant is in force. */
    public String revocationReason() {
        return revocationReason;
    }

    /**
     * Revokes the grant and freezes every sequence stream issuing on it, then returns the highest wall-clock
     * millisecond any of them issued: the exact high-water mark a graceful release writes as
     * {@code reservedUntil}. Returns {@code floorMillis - 1} when nothing was issued.
     */
    public long sealForRelease(final String reason) {
        synchronized (this) {
            revoke(reason);
            sealed = true;
            long highWater = Math.max(floorMillis - 1, settledHighWater);
            for (HighWaterSource each : sources) {
                highWater = Math.max(highWater, each.seal());
            }
            return highWater;
        }
    }

    /**
     * Registers a counter issuing on this grant so that a revocation reaches it and a release can freeze it. A counter
     * attached to a grant revoked already is told at once, under the same lock as {@link #revoke}: none is missed.
     *
     * @return false when the grant is already sealed: the counter must not issue on it
     */
    public boolean attach(final HighWaterSource source) {
        synchronized (this) {
            if (sealed) {
                return false;
            }
            sources.add(source);
            if (revocationReason != null) {
                source.revoked();
            }
            return true;
        }
    }

    /**
     * Forgets a source that can never issue on this grant again (sealed for good), keeping the highest millisecond it
     * issued for the release: a long-lived grant whose generator changes its holdings again and again would otherwise
     * keep every past counter, and with them the grants of every holding given back.
     */
    public void settle(final HighWaterSource source) {
        synchronized (this) {
            if (sources.remove(source)) {
                settledHighWater = Math.max(settledHighWater, source.seal());
            }
        }
    }

    @Override
    public String toString() {
        long ceiling = ceilingMillis;
        return holder + " (floor " + Instant.ofEpochMilli(floorMillis) + ", ceiling "
                + (ceiling == UNBOUNDED ? "none" : Instant.ofEpochMilli(ceiling).toString()) + (isRevoked() ? ", revoked: " + revocationReason : "") + ")";
    }
}
