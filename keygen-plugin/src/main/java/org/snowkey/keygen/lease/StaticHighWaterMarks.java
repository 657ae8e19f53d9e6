package org.snowkey.keygen.lease;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * What closed static leases issued last, by worker id: a static lease opened again (a restarted application
 * context in the same JVM) starts above it, as a registry's successor would. {@link #jvm()} is the one the
 * runtime uses; tests that open and close static leases under a model checker use their own instance, so that
 * each explored execution starts from nothing.
 *
 * <p>The mark is kept as the timestamp the ids carry ({@code wall clock - epoch}), not as a wall-clock millisecond:
 * a context reopened with a later {@code epoch} (one second later, say) and a floor one wall-clock millisecond above
 * the old mark composed the very timestamps, and so the very ids, the first context had issued one second before.
 * Every layout puts the timestamp in the same top 41 bits, so a floor above the old timestamps keeps ids apart
 * whatever else of the layout changed.
 */
public final class StaticHighWaterMarks {

    private static final StaticHighWaterMarks JVM = new StaticHighWaterMarks();

    /** The highest id timestamp (ms since the issuing layout's epoch) that a closed static lease of each worker id reached. */
    private final ConcurrentMap<Integer, Long> releasedTimestamps = new ConcurrentHashMap<>();

    /** The marks of this JVM: static worker ids are process-wide, whatever context uses them. */
    public static StaticHighWaterMarks jvm() {
        return JVM;
    }

    /**
     * The first wall-clock millisecond a new static lease of that worker id may issue under a layout with that epoch:
     * its ids then carry timestamps above every id timestamp a released lease of the worker id issued, in any layout.
     */
    long floorMillis(final int workerId, final long epochMillis) {
        Long released = releasedTimestamps.get(workerId);
        return released == null ? 0 : Math.max(0, epochMillis + released + 1);
    }

    void recordRelease(final int workerId, final long highWaterMillis, final long epochMillis) {
        releasedTimestamps.merge(workerId, highWaterMillis - epochMillis, Math::max);
    }
}
