package org.snowkey.keygen.lease;

import java.time.Instant;

import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.layout.IdLayout;

/**
 * A fixed worker id with no registry behind it: safe only when no other process uses the same number.
 * Its single grant has no ceiling and never expires.
 */
public final class StaticWorkerLease implements WorkerLease {

    /** Where this lease records its high-water mark on close, and where it read its floor from. */
    private final StaticHighWaterMarks marks;

    /** The epoch of the layout issuing on this lease: the high-water marks bind the timestamps ids carry, {@code wall - epoch}. */
    private final long epochMillis;

    private final LeaseGrant grant;

    private volatile boolean closed;

    /** A static lease of this JVM for the default epoch: it starts above whatever an earlier static lease of that worker id issued. */
    public StaticWorkerLease(final int workerId) {
        this(workerId, IdLayout.defaults().epochMillis(), StaticHighWaterMarks.jvm());
    }

    /** A static lease for the default epoch, with its own marks. */
    public StaticWorkerLease(final int workerId, final StaticHighWaterMarks marks) {
        this(workerId, IdLayout.defaults().epochMillis(), marks);
    }

    /**
     * @param workerId the fixed worker id
     * @param epochMillis the epoch of the layout that issues on it
     * @param marks where closed static leases record what they issued, and where this one reads its floor
     */
    public StaticWorkerLease(final int workerId, final long epochMillis, final StaticHighWaterMarks marks) {
        this.marks = marks;
        this.epochMillis = epochMillis;
        grant = new LeaseGrant(workerId, marks.floorMillis(workerId, epochMillis), LeaseGrant.UNBOUNDED, "static worker id " + workerId);
    }

    @Override
    public void requireLayout(final IdLayout layout) {
        if (layout.epochMillis() != epochMillis) {
            throw new IllegalArgumentException(describe() + " was made for the epoch " + Instant.ofEpochMilli(epochMillis) + ", but the generator's "
                    + PropertyNames.EPOCH + " is " + Instant.ofEpochMilli(layout.epochMillis()) + ": its floor, read from the high-water marks of "
                    + "closed static leases as id timestamps of that epoch, would lie below the ids they issued. Create it with the layout's epoch");
        }
    }

    @Override
    public LeaseGrant currentGrant() {
        if (closed) {
            throw new LeaseUnavailableException(describe() + " is closed");
        }
        return grant;
    }

    @Override
    public LeaseStatus status() {
        return new LeaseStatus(describe(), null, grant.workerId(), -1, LeaseGrant.UNBOUNDED, !closed, closed ? "closed" : null, 0, 0);
    }

    @Override
    public String describe() {
        return "static worker id " + grant.workerId();
    }

    @Override
    public void close() {
        closed = true;
        long highWater = grant.sealForRelease("closed");
        marks.recordRelease(grant.workerId(), highWater, epochMillis);
    }
}
