package org.snowkey.keygen.lease;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A fixed worker id with no registry behind it: safe only when no other process uses the same number.
 * Its single grant has no ceiling and never expires.
 */
public final class StaticWorkerLease implements WorkerLease {

    /**
     * What closed static leases of this JVM issued last, by worker id: a static lease opened again in the same
     * JVM (a restarted application context) starts above it, as a registry's successor would.
     */
    private static final ConcurrentMap<Integer, Long> RELEASED_HIGH_WATER = new ConcurrentHashMap<>();

    private final LeaseGrant grant;

    private volatile boolean closed;

    public StaticWorkerLease(final int workerId) {
        long floor = RELEASED_HIGH_WATER.getOrDefault(workerId, -1L) + 1;
        grant = new LeaseGrant(workerId, floor, LeaseGrant.UNBOUNDED, "static worker id " + workerId);
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
        RELEASED_HIGH_WATER.merge(grant.workerId(), highWater, Math::max);
    }
}
