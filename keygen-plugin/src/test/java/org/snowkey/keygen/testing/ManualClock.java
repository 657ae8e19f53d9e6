package org.snowkey.keygen.testing;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.snowkey.keygen.clock.WallClock;

/**
 * A wall clock that tests move by hand. With {@link #advanceOnPreciseRead(boolean)} every precise read moves it
 * one millisecond forward, and with {@link #advanceOnPause(boolean)} every wait lets the time it waits for pass, so
 * that a generator waiting for the clock sees time pass as it would in reality.
 */
public final class ManualClock implements WallClock {

    private final AtomicLong now;

    private volatile boolean advanceOnPreciseRead;

    private volatile boolean advanceOnPause;

    public ManualClock(final long startMillis) {
        now = new AtomicLong(startMillis);
    }

    @Override
    public long millis() {
        return now.get();
    }

    @Override
    public long preciseMillis() {
        return advanceOnPreciseRead ? now.incrementAndGet() : now.get();
    }

    /** With {@link #advanceOnPause(boolean)}, a generator's wait lets the time it waits for pass; else it yields. */
    @Override
    public void parkNanos(final long nanos) {
        if (advanceOnPause) {
            // parkNanos(0) is a wait for the next millisecond; a longer park stops short of the millisecond it waits for.
            now.addAndGet(Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos) + 1));
        } else {
            Thread.yield();
        }
    }

    public ManualClock advanceOnPause(final boolean enabled) {
        advanceOnPause = enabled;
        return this;
    }

    public void set(final long millis) {
        now.set(millis);
    }

    public void advance(final long millis) {
        now.addAndGet(millis);
    }

    public ManualClock advanceOnPreciseRead(final boolean enabled) {
        advanceOnPreciseRead = enabled;
        return this;
    }
}
