package org.snowkey.keygen.segment;

import static org.snowkey.keygen.segment.SegmentPropertyNames.FETCH_TIMEOUT_MILLISECONDS;
import static org.snowkey.keygen.segment.SegmentPropertyNames.PREFETCH_PERCENT;
import static org.snowkey.keygen.segment.SegmentPropertyNames.RANGE_LIFETIME_MILLISECONDS;
import static org.snowkey.keygen.segment.SegmentPropertyNames.STEP_MAX;
import static org.snowkey.keygen.segment.SegmentPropertyNames.STEP_MIN;

import org.snowkey.keygen.config.InvalidSettingException;

/**
 * How a segment sequence sizes and fetches its ranges. Each bound is checked once, here, naming the prop.
 *
 * @param minStep                 the smallest range asked for ({@code segment-step-min})
 * @param maxStep                 the largest range asked for ({@code segment-step-max})
 * @param targetLifetimeMillis    how long a range should last at the current rate ({@code segment-range-lifetime-milliseconds})
 * @param prefetchPercent         how much of a range is used when the next one is fetched ({@code segment-prefetch-percent})
 * @param fetchTimeoutMillis      how long an insert waits for a range when both buffers are empty ({@code segment-fetch-timeout-milliseconds})
 */
public record SegmentSettings(long minStep, long maxStep, long targetLifetimeMillis, int prefetchPercent, long fetchTimeoutMillis) {

    /** Defaults: ranges of 1,000 to 1,000,000 keys sized for 10 s each, the next one fetched at 10% used, 3 s to wait. */
    public static SegmentSettings defaults() {
        return new SegmentSettings(1_000, 1_000_000, 10_000, 10, 3_000);
    }

    public SegmentSettings {
        if (minStep < 1 || minStep > NumberRange.MAX_KEY) {
            throw new InvalidSettingException(STEP_MIN, minStep, "an integer from 1 to 2^53 - 1");
        }
        if (maxStep < minStep || maxStep > NumberRange.MAX_KEY) {
            throw new InvalidSettingException(STEP_MAX, maxStep, "an integer from " + STEP_MIN + " (" + minStep + ") to 2^53 - 1");
        }
        if (targetLifetimeMillis < 1 || targetLifetimeMillis > 86_400_000L) {
            throw new InvalidSettingException(RANGE_LIFETIME_MILLISECONDS, targetLifetimeMillis, "an integer from 1 to 86400000 (one day)");
        }
        if (prefetchPercent < 0 || prefetchPercent > 99) {
            throw new InvalidSettingException(PREFETCH_PERCENT, prefetchPercent, "an integer from 0 (fetch as soon as a range is taken) to 99");
        }
        if (fetchTimeoutMillis < 1 || fetchTimeoutMillis > 600_000L) {
            throw new InvalidSettingException(FETCH_TIMEOUT_MILLISECONDS, fetchTimeoutMillis, "an integer from 1 to 600000 (ten minutes)");
        }
    }

    AdaptiveStep adaptiveStep() {
        return new AdaptiveStep(minStep, maxStep, targetLifetimeMillis * 1_000_000L);
    }
}
