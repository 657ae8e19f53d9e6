package org.snowkey.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.segment.SegmentSequence;
import org.snowkey.keygen.segment.SegmentSettings;

/**
 * Segment mode at the default settings (not a JMH timing): allocator round trips per million keys and the runway the
 * buffers give, for steady insert rates. The sequence runs on virtual time (each key advances the clock by
 * 1/rate s) with fetches run in the caller, so the adaptive step sees exactly the given rate and the report is the
 * same on every machine. Two windows: the first million keys (the step still growing from
 * {@code segment-step-min}) and keys 10,000,001-20,000,000 (steady state, counted per million).
 */
public final class SegmentRoundTripReport {

    static final long[] RATES = {10_000, 100_000, 1_000_000, 100_000_000};

    private static final long MILLION = 1_000_000;

    private static final long STEADY_FROM = 10 * MILLION;

    private static final long STEADY_KEYS = 10 * MILLION;

    private SegmentRoundTripReport() {
    }

    /**
     * @param rate                 keys per second
     * @param firstMillionCalls    allocator calls while the first million keys were issued
     * @param steadyCallsPerMillion allocator calls per million keys while keys 10,000,001-20,000,000 were issued
     * @param steadyStep           the step of the last fetch
     * @param minRunwaySeconds     least keys in memory / rate during the steady window (just before a prefetch; 0 when a caller waits for a fetch)
     * @param maxRunwaySeconds     most keys in memory / rate during the steady window (just after a prefetch)
     */
    public record Row(long rate, long firstMillionCalls, double steadyCallsPerMillion, long steadyStep, double minRunwaySeconds, double maxRunwaySeconds) {
    }

    public static List<Row> run() {
        List<Row> result = new ArrayList<>();
        for (long each : RATES) {
            result.add(run(each));
        }
        return result;
    }

    static Row run(final long rate) {
        VirtualClock clock = new VirtualClock();
        CountingRangeAllocator allocator = new CountingRangeAllocator();
        double nanosPerKey = 1e9 / rate;
        long callsAtMillion = 0;
        long callsAtSteadyStart = 0;
        double minRunway = Double.POSITIVE_INFINITY;
        double maxRunway = 0;
        try (SegmentSequence sequence = new SegmentSequence("bench_db.t_order", allocator, SegmentSettings.defaults(), clock, Runnable::run)) {
            for (long issued = 1; issued <= STEADY_FROM + STEADY_KEYS; issued++) {
                clock.nanos = (long) (issued * nanosPerKey);
                sequence.nextId();
                if (issued == MILLION) {
                    callsAtMillion = allocator.calls();
                }
                if (issued == STEADY_FROM) {
                    callsAtSteadyStart = allocator.calls();
                }
                if (issued > STEADY_FROM) {
                    double runway = (double) sequence.remaining() / rate;
                    minRunway = Math.min(minRunway, runway);
                    maxRunway = Math.max(maxRunway, runway);
                }
            }
            return new Row(rate, callsAtMillion, (double) (allocator.calls() - callsAtSteadyStart) * MILLION / STEADY_KEYS, sequence.status().step(), minRunway, maxRunway);
        }
    }

    /** The rows as a markdown table. */
    public static String table(final List<Row> rows) {
        StringBuilder out = new StringBuilder("| keys/s | round trips, first 1M keys | round trips per 1M keys, steady | steady step | runway, s (min-max) |\n|---:|---:|---:|---:|---:|\n");
        for (Row each : rows) {
            out.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %,d | %.3g-%.3g |%n", RunAll.human(each.rate()), each.firstMillionCalls(), each.steadyCallsPerMillion(),
                    each.steadyStep(), each.minRunwaySeconds(), each.maxRunwaySeconds()));
        }
        return out.toString();
    }

    public static void main(final String[] args) {
        System.out.print(table(run()));
    }

    /** Virtual time: set by the driver, advanced by waits; the system clock is never read. */
    static final class VirtualClock implements WallClock {

        long nanos;

        @Override
        public long millis() {
            return nanos / 1_000_000;
        }

        @Override
        public long nanoTime() {
            return nanos;
        }

        @Override
        public void parkNanos(final long wait) {
            nanos += Math.max(0, wait);
        }
    }
}
