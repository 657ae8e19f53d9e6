package org.snowkey.lease.testing;

import org.snowkey.keygen.clock.WallClock;

/** The system clock, unless a test froze it: plays a process whose time stands still (GC pause, SIGSTOP). */
public final class PausableClock implements WallClock {

    private volatile long frozenAt = Long.MIN_VALUE;

    @Override
    public long millis() {
        long frozen = frozenAt;
        return frozen == Long.MIN_VALUE ? System.currentTimeMillis() : frozen;
    }

    public void freeze() {
        frozenAt = System.currentTimeMillis();
    }

    public void resume() {
        frozenAt = Long.MIN_VALUE;
    }
}
