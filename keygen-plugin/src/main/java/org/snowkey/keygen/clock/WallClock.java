package org.snowkey.keygen.clock;

import java.util.concurrent.locks.LockSupport;

/**
 * The wall clock the generator reads, in milliseconds since 1970 (UTC).
 *
 * <p>{@link #millis()} may lag the real time by a tick but must never lead it: the generator uses it on the
 * hot path to decide that an id's timestamp has already been reached. When that cheap reading says no, the
 * generator asks {@link #preciseMillis()} before it waits. Tests inject their own clock to move time back.
 *
 * <p>Every wait of the generator (for the next millisecond, for a renewal) goes through {@link #parkNanos} and every
 * deadline through {@link #nanoTime}, so that a model checker or a simulator can run the generator on virtual
 * time, where a wait lets time pass instead of blocking a thread.
 */
public interface WallClock {

    /** A reading that may lag the real time slightly, never lead it. */
    long millis();

    /** The current time as precisely as the clock can tell. */
    default long preciseMillis() {
        return millis();
    }

    /**
     * Monotonic time for measuring how long a caller has waited, in nanoseconds. A simulated clock returns its
     * virtual time, so that waits measured against it replay exactly.
     */
    default long nanoTime() {
        return System.nanoTime();
    }

    /**
     * Lets about {@code nanos} pass while a caller waits for the clock or a renewal; {@code 0} only yields the
     * thread. The system clock parks the thread; a simulated clock advances its virtual time instead.
     */
    default void parkNanos(final long nanos) {
        if (nanos <= 0) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(nanos);
        }
    }

    /** The system clock, read through a cheap cached value on the hot path. */
    static WallClock system() {
        return SystemWallClock.INSTANCE;
    }
}
