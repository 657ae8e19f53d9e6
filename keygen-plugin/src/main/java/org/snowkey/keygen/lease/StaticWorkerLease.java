package org.snowkey.keygen.lease;

/**
 * A fixed worker id with no registry behind it: safe only when no other process uses the same number.
 * Its single grant has no ceiling and never expires.
 */
public final class StaticWorkerLease implements WorkerLease {

    /** Where this lease records its high-water mark on close, and where it read its floor from. */
    private final StaticHighWaterMarks marks;

    private final LeaseGrant grant;

    private volatile boolean closed;

    /** A static lease of this JVM: it starts above whatever an earlier static lease of that worker id issued. */
    public StaticWorkerLease(final int workerId) {
        this(workerId, StaticHighWaterMarks.jvm());
    }

    public StaticWorkerLease(final int workerId, final StaticHighWaterMarks marks) {
        this.marks = marks;
        grant = new LeaseGrant(workerId, marks.floorMillis(workerId), LeaseGrant.UNBOUNDED, "static worker id " + workerId);
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
        marks.recordRelease(grant.workerId(), highWater);
    }
}
