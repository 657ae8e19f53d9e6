package org.snowkey.keygen.lease;

/**
 * A fixed worker id with no registry behind it: safe only when no other process uses the same number.
 * Its single grant has no ceiling and never expires.
 */
public final class StaticWorkerLease implements WorkerLease {

    private final LeaseGrant grant;

    private volatile boolean closed;

    public StaticWorkerLease(final int workerId) {
        grant = new LeaseGrant(workerId, 0L, LeaseGrant.UNBOUNDED, "static worker id " + workerId);
    }

    @Override
    public LeaseGrant currentGrant() {
        if (closed) {
            throw new LeaseUnavailableException(describe() + " is closed");
        }
        return grant;
    }

    @Override
    public String describe() {
        return "static worker id " + grant.workerId();
    }

    @Override
    public void close() {
        closed = true;
        grant.sealForRelease("closed");
    }
}
