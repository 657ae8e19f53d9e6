package org.snowkey.keygen.clock;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@link System#currentTimeMillis()} behind a value that one daemon thread refreshes every half millisecond (so the
 * value lags the clock by at most about 0.5 ms plus scheduling delay).
 *
 * <p>Why: a burst spends the time cache at one compare-and-set per id, about 10 ns. Reading the clock for every
 * id would triple that. The cached value only ever lags the real clock, which is the safe direction: the
 * generator asks {@link #preciseMillis()} before it decides it has to wait, so the lag never costs an id.
 * The ticker starts with the first generator that uses the system clock.
 */
final class SystemWallClock implements WallClock {

    static final SystemWallClock INSTANCE = new SystemWallClock();

    /** What {@link #cached} holds until the ticker runs: no reading of the wall clock is 0 (1970-01-01T00:00:00Z). */
    private static final long NOT_TICKING = 0;

    /** The clock as the ticker last read it, or {@link #NOT_TICKING}: one read on the id path tells both. */
    private volatile long cached = NOT_TICKING;

    /** Guarded by this object's lock: one ticker, even for a wall clock that reads 0. */
    private boolean tickerStarted;

    /** One per JVM ({@link #INSTANCE}); tests make their own to see a ticker start. */
    SystemWallClock() {
    }

    @Override
    public long millis() {
        long now = cached;
        return now != NOT_TICKING ? now : startTicker();
    }

    @Override
    public long preciseMillis() {
        long now = System.currentTimeMillis();
        long seen = cached;
        // Readers of the cache must not see it go backwards because of our write racing the ticker's; and before the
        // ticker runs, the cache stays empty (a value there would be read as the ticker's, and never refreshed).
        if (now > seen && seen != NOT_TICKING) {
            cached = now;
        }
        return now;
    }

    /** Starts the ticker unless it runs, and reads the clock. */
    private synchronized long startTicker() {
        if (!tickerStarted) {
            tickerStarted = true;
            cached = System.currentTimeMillis();
            Thread ticker = new Thread(this::tick, "snowkey-clock-ticker");
            ticker.setDaemon(true);
            ticker.start();
        }
        return preciseMillis();
    }

    private void tick() {
        while (true) {
            // A plain store: if the wall clock steps back, the cache follows it, like the real clock.
            cached = System.currentTimeMillis();
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(500));
        }
    }
}
