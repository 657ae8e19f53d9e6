package org.snowkey.keygen.generator;

import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;

/**
 * The rules every stream of a generator issues under (docs/design.md, "The historical clock"): never past the wall clock, never past
 * the lease ceiling, wait for a clock that moved back only up to the tolerance, spend at most the time cache cap of idle
 * time at once. The one place that applies the generator's {@link ClockRules}. Shared by the streams of one
 * generator, together with the highest clock reading seen, which tells a clock step back from a burst that
 * simply ran ahead of the clock.
 */
final class IssuePolicy {

    private final IdLayout layout;

    private final WallClock clock;

    private final long toleranceMillis;

    private final long maxTimeCacheMillis;

    private final AtomicLong highestClockReading = new AtomicLong();

    private final LongAdder clockBackWaits = new LongAdder();

    IssuePolicy(final IdLayout layout, final WallClock clock, final ClockRules rules) {
        this.layout = layout;
        this.clock = clock;
        this.toleranceMillis = rules.maxTolerateTimeDifferenceMillis();
        this.maxTimeCacheMillis = rules.maxTimeCacheMillis();
    }

    IdLayout layout() {
        return layout;
    }

    WallClock clock() {
        return clock;
    }

    /**
     * The oldest logical timestamp a batch may take at {@code nowLogical}: a counter idle for longer than the time cache
     * cap drops the rest, so that decoded timestamps stay near real time.
     */
    long timeCacheFloor(final long nowLogical) {
        return nowLogical - maxTimeCacheMillis;
    }

    /** The time cache's cap, ms: a counter never issues further behind the clock than this. */
    long timeCacheCapMillis() {
        return maxTimeCacheMillis;
    }

    /** The time cache a counter has when its last timestamp lags the clock by {@code lagMillis}: the lag, within 0 and the cap. */
    long timeCacheOf(final long lagMillis) {
        return Math.max(0, Math.min(maxTimeCacheMillis, lagMillis));
    }

    long clockBackWaits() {
        return clockBackWaits.sum();
    }

    /** The wall clock as a logical timestamp, cheap and possibly a tick behind. */
    long nowLogical() {
        return layout.toLogical(clock.millis());
    }

    /** The wall clock as a logical timestamp, precise; remembers the highest reading. */
    long preciseNowLogical() {
        long now = clock.preciseMillis();
        highestClockReading.accumulateAndGet(now, Math::max);
        return layout.toLogical(now);
    }

    /**
     * Waits until the wall clock reaches logical timestamp {@code needed}. A stream that issued faster than
     * 2^S ids per ms simply waits for the next milliseconds; a clock that stepped back below a reading already
     * seen is waited for only up to the tolerance.
     *
     * @param needed the logical timestamp the next id needs
     * @param lastIssued the logical timestamp of the stream's last id: the clock had reached it, so a reading
     *                   below it proves that the clock moved back even when the hot path never read it precisely
     * @throws IdUnavailableException when the clock moved back further than the tolerance
     */
    void awaitClock(final long needed, final long lastIssued) {
        long now = preciseNowLogical();
        long wait = needed - now;
        if (wait <= 0) {
            return;
        }
        long highest = Math.max(lastIssued, layout.toLogical(highestClockReading.get()));
        if (now < highest) {
            if (wait > toleranceMillis) {
                throw new IdUnavailableException("SnowKey cannot issue an id: the wall clock moved back " + (highest - now) + " ms (from "
                        + Instant.ofEpochMilli(layout.toWallClock(highest)) + " to " + Instant.ofEpochMilli(layout.toWallClock(now))
                        + ") and the time cache is spent; the next id needs " + Instant.ofEpochMilli(layout.toWallClock(needed)) + ", "
                        + wait + " ms away, more than " + PropertyNames.MAX_TOLERATE_TIME_DIFFERENCE_MILLISECONDS + " = " + toleranceMillis);
            }
            clockBackWaits.increment();
        }
        sleepFor(wait);
    }

    /**
     * Waits until the wall clock reaches the first timestamp of a new grant, {@code startLogical}. A grant can
     * start ahead of this clock when its lease's floor lies ahead: the previous holder of the worker id reserved
     * timestamps up to a clock that runs ahead of ours (or ours moved back). Waiting for that is a clock
     * difference like any other, so it is bounded by the same tolerance: an insert is never blocked silently for
     * longer (a floor may lie up to a whole lease ahead).
     *
     * @throws IdUnavailableException when the start lies further ahead than the tolerance
     */
    void awaitStart(final long startLogical, final LeaseGrant grant) {
        while (true) {
            long now = preciseNowLogical();
            long wait = startLogical - now;
            if (wait <= 0) {
                return;
            }
            if (wait > toleranceMillis) {
                throw new IdUnavailableException("SnowKey cannot issue an id yet: " + grant.holder() + " starts at "
                        + Instant.ofEpochMilli(layout.toWallClock(startLogical)) + " (above everything its previous holder may have issued), "
                        + wait + " ms ahead of this clock (" + Instant.ofEpochMilli(layout.toWallClock(now)) + "), more than "
                        + PropertyNames.MAX_TOLERATE_TIME_DIFFERENCE_MILLISECONDS + " = " + toleranceMillis
                        + "; the previous holder's clock runs ahead of this one (or this one moved back). Ids flow again once this clock is within "
                        + toleranceMillis + " ms of it; synchronise the clocks (NTP)");
            }
            clockBackWaits.increment();
            sleepFor(wait);
        }
    }

    /**
     * Waits up to the tolerance for the lease backend to raise the grant's ceiling above {@code neededWallClock}.
     *
     * @return false when the grant was revoked meanwhile (the caller re-reads the lease)
     * @throws IdUnavailableException when the ceiling stays below
     */
    boolean awaitCeiling(final LeaseGrant grant, final long neededWallClock) {
        long deadline = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(toleranceMillis);
        while (grant.ceilingMillis() < neededWallClock) {
            if (grant.isRevoked()) {
                return false;
            }
            if (clock.nanoTime() - deadline >= 0) {
                throw new IdUnavailableException("SnowKey cannot issue an id: lease ceiling reached. " + grant.holder() + " may issue timestamps up to "
                        + Instant.ofEpochMilli(grant.ceilingMillis()) + " (its reserved-until as last written to the registry), the next id needs "
                        + Instant.ofEpochMilli(neededWallClock) + ", and the lease has not been renewed; is the registry reachable?");
            }
            clock.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            failIfInterrupted();
        }
        return true;
    }

    private void sleepFor(final long millis) {
        // The next millisecond is close: yielding (parkNanos(0)) is cheaper than a timed park and its wake-up latency.
        clock.parkNanos(millis <= 1 ? 0 : TimeUnit.MILLISECONDS.toNanos(millis - 1));
        failIfInterrupted();
    }

    /** A caller waiting for the clock or a renewal gives up when its thread is interrupted (keeping the flag). */
    private static void failIfInterrupted() {
        if (Thread.currentThread().isInterrupted()) {
            throw new IdUnavailableException("SnowKey was interrupted while waiting for the clock or a lease renewal; no id was issued");
        }
    }
}
