package org.snowkey.lease.testing;

import java.util.concurrent.atomic.AtomicLong;

import org.snowkey.keygen.clock.WallClock;

/** A wall clock a test sets by hand: time passes only when the test says so (a lease that expires on cue). */
public final class SettableClock implements WallClock {

    private final AtomicLong millis;

    public SettableClock(final long startMillis) {
        this.millis = new AtomicLong(startMillis);
    }

    @Override
    public long millis() {
        return millis.get();
    }

    public void set(final long newMillis) {
        millis.set(newMillis);
    }

    public void advance(final long deltaMillis) {
        millis.addAndGet(deltaMillis);
    }
}
