package org.snowkey.keygen.clock;

/**
 * The wall clock the generator reads, in milliseconds since 1970 (UTC).
 *
 * <p>{@link #millis()} may lag the real time by a tick but must never lead it: the generator uses it on the
 * hot path to decide that an id's timestamp has already been reached. When that cheap reading says no, the
 * generator asks {@link #preciseMillis()} before it waits. Tests inject their own clock to move time back.
 */
public interface WallClock {

    /** A reading that may lag the real time slightly, never lead it. */
    long millis();

    /** The current time as precisely as the clock can tell. */
    default long preciseMillis() {
        return millis();
    }

    /** The system clock, read through a cheap cached value on the hot path. */
    static WallClock system() {
        return SystemWallClock.INSTANCE;
    }
}
