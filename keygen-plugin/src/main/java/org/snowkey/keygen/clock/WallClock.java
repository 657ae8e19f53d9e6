package org.snowkey.keygen.clock;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The wall clock the generator reads, in milliseconds since 1970 (UTC).
 *
 * <p>{@link #millis()} may lag the real time by a tick but must never lead it: the generator uses it on the
 * hot path to decide that an id's timestamp has already been reached. When that cheap reading says no, the
 * generator asks {@link #preciseMillis()} before it waits. Tests inject their own clock to move time back.
 *
 * <p>Every wait of the generator (for the next millisecond, for a renewal) goes through {@link #pause} and every
 * deadline through {@link #elapsedNanos}, so that a model checker or a simulator can run the generator on virtual
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
     * Lets about {@code millis} ms pass on this clock. The system clock yields the thread for a wait of a millisecond
     * or less (the next millisecond is close: cheaper than a timed park and its wake-up latency) and parks it
     * otherwise; a virtual clock moves its time forward.
     */
    default void pause(final long millis) {
        if (millis <= 1) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(millis - 1));
        }
    }

    /** A monotonic reading for deadlines, in nanoseconds from an arbitrary origin. */
    default long elapsedNanos() {
        return System.nanoTime();
    }

    /** The system clock, read through a cheap cached value on the hot path. */
    static WallClock system() {
        return SystemWallClock.INSTANCE;
    }
}
