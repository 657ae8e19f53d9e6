package org.snowkey.keygen.lease;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * What closed static leases issued last, by worker id: a static lease opened again (a restarted application
 * context in the same JVM) starts above it, as a registry's successor would. {@link #jvm()} is the one the
 * runtime uses; tests that open and close static leases under a model checker use their own instance, so that
 * each explored execution starts from nothing.
 */
public final class StaticHighWaterMarks {

    private static final StaticHighWaterMarks JVM = new StaticHighWaterMarks();

    private final ConcurrentMap<Integer, Long> releasedHighWater = new ConcurrentHashMap<>();

    /** The marks of this JVM: static worker ids are process-wide, whatever context uses them. */
    public static StaticHighWaterMarks jvm() {
        return JVM;
    }

    /** The first millisecond a new static lease of that worker id may issue: above every released high-water mark. */
    long floorMillis(final int workerId) {
        return releasedHighWater.getOrDefault(workerId, -1L) + 1;
    }

    void recordRelease(final int workerId, final long highWaterMillis) {
        releasedHighWater.merge(workerId, highWaterMillis, Math::max);
    }
}
