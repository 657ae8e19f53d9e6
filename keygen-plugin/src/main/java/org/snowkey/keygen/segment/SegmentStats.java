package org.snowkey.keygen.segment;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Counters of one sequence's fetches and a rate sampled when someone asks (never on the key path). */
final class SegmentStats {

    private static final long SAMPLE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final AtomicLong rangesFetched = new AtomicLong();

    private final AtomicLong fetchFailures = new AtomicLong();

    private volatile long lastFetchNanos;

    private long sampledIssued = -1;

    private long sampledAtNanos;

    private double rate;

    void fetched(final long nanos) {
        lastFetchNanos = nanos;
        rangesFetched.incrementAndGet();
    }

    void fetchFailed() {
        fetchFailures.incrementAndGet();
    }

    long rangesFetched() {
        return rangesFetched.get();
    }

    long fetchFailures() {
        return fetchFailures.get();
    }

    long lastFetchNanos() {
        return lastFetchNanos;
    }

    /**
     * The issue rate in keys per second: averaged over the time since the previous sample once a second has
     * passed, and smoothed with the previous rate so that one quiet second does not hide a busy minute.
     */
    synchronized double sampleRate(final long issued, final long nowNanos) {
        if (sampledIssued < 0) {
            sampledIssued = issued;
            sampledAtNanos = nowNanos;
            return rate;
        }
        long elapsed = nowNanos - sampledAtNanos;
        if (elapsed >= SAMPLE_NANOS) {
            double recent = (issued - sampledIssued) * 1e9 / elapsed;
            rate = rate == 0 ? recent : (rate + recent) / 2;
            sampledIssued = issued;
            sampledAtNanos = nowNanos;
        }
        return rate;
    }
}
