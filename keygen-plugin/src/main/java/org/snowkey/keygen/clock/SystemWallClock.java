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

    private volatile long cached = System.currentTimeMillis();

    private volatile boolean tickerStarted;

    private SystemWallClock() {
    }

    @Override
    public long millis() {
        if (!tickerStarted) {
            startTicker();
            return preciseMillis();
        }
        return cached;
    }

    @Override
    public long preciseMillis() {
        long now = System.currentTimeMillis();
        // Readers of the cache must not see it go backwards because of our write racing the ticker's.
        if (now > cached) {
            cached = now;
        }
        return now;
    }

    private synchronized void startTicker() {
        if (tickerStarted) {
            return;
        }
        Thread ticker = new Thread(this::tick, "snowkey-clock-ticker");
        ticker.setDaemon(true);
        ticker.start();
        tickerStarted = true;
    }

    private void tick() {
        while (true) {
            // A plain store: if the wall clock steps back, the cache follows it, like the real clock.
            cached = System.currentTimeMillis();
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(500));
        }
    }
}
