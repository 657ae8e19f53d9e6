package org.snowkey.lease.simulation;

import org.snowkey.keygen.clock.WallClock;

/**
 * The wall clock of one simulated instance: the world's virtual time plus the instance's own offset, which
 * starts skewed and jumps (forwards and backwards) when the schedule says so. Waiting on it moves virtual time.
 */
final class SimClock implements WallClock {

    /** A yield lets a little time pass, so that a caller spinning for the next millisecond gets there. */
    private static final long YIELD_MICROS = 100;

    private final SimWorld world;

    private long offsetMillis;

    SimClock(final SimWorld world, final long offsetMillis) {
        this.world = world;
        this.offsetMillis = offsetMillis;
    }

    void jump(final long deltaMillis) {
        offsetMillis += deltaMillis;
    }

    long offsetMillis() {
        return offsetMillis;
    }

    @Override
    public long millis() {
        return world.nowMillis() + offsetMillis;
    }

    @Override
    public long nanoTime() {
        return world.nowMicros() * 1000;
    }

    @Override
    public void parkNanos(final long nanos) {
        world.pass(Math.max(YIELD_MICROS, nanos / 1000));
    }
}
