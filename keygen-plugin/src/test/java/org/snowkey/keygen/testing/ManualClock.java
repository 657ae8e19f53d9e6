package org.snowkey.keygen.testing;

import java.util.concurrent.atomic.AtomicLong;

import org.snowkey.keygen.clock.WallClock;

/**
 * A wall clock that tests move by hand. With {@link #advanceOnPreciseRead(boolean)} every precise read moves it
 * one millisecond forward, so that a generator waiting for the clock sees time pass as it would in reality.
 */
public final class ManualClock implements WallClock {

    private final AtomicLong now;

    private volatile boolean advanceOnPreciseRead;

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
