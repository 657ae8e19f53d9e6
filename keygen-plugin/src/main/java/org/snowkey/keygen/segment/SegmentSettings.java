package org.snowkey.keygen.segment;

import static org.snowkey.keygen.segment.SegmentPropertyNames.FETCH_TIMEOUT_MILLISECONDS;
import static org.snowkey.keygen.segment.SegmentPropertyNames.PREFETCH_PERCENT;
import static org.snowkey.keygen.segment.SegmentPropertyNames.RANGE_LIFETIME_MILLISECONDS;
import static org.snowkey.keygen.segment.SegmentPropertyNames.STEP_MAX;
import static org.snowkey.keygen.segment.SegmentPropertyNames.STEP_MIN;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.PropertyReader;

/**
 * How a segment sequence sizes and fetches its ranges, read from the props by {@link #parse}. Each bound is checked
 * here, naming the prop, also for settings built in code.
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

    /**
     * Reads the sizing and fetching props, each over its default.
     *
     * @throws InvalidSettingException naming the prop and the value
     */
    public static SegmentSettings parse(final PropertyReader reader) {
        SegmentSettings defaults = defaults();
        long minStep = reader.longValue(STEP_MIN, defaults.minStep(), 1, NumberRange.MAX_KEY);
        return new SegmentSettings(
                minStep,
                // A larger minimum lifts the default maximum.
                reader.longValue(STEP_MAX, Math.max(defaults.maxStep(), minStep), 1, NumberRange.MAX_KEY),
                reader.longValue(RANGE_LIFETIME_MILLISECONDS, defaults.targetLifetimeMillis(), 1, 86_400_000L),
                reader.intValue(PREFETCH_PERCENT, defaults.prefetchPercent(), 0, 99),
                reader.longValue(FETCH_TIMEOUT_MILLISECONDS, defaults.fetchTimeoutMillis(), 1, 600_000L));
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
