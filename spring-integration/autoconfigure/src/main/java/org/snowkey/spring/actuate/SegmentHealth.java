package org.snowkey.spring.actuate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.snowkey.keygen.segment.SegmentStatus;

/**
 * The segment part of the {@code snowkey} health verdict, over every live segment sequence of the JVM (ShardingSphere's
 * {@code SNOWKEY_SEGMENT} key generators and the {@code SnowKeySegments} bean alike).
 *
 * <p>DOWN only when keys of a sequence cannot be had now: the sequence stopped for good (its allocator broke its
 * contract; it fails closed), or it has no keys left and its allocator fails, so inserts of that key fail. An
 * allocator outage while keys remain is UP, with {@code lastFailure} and {@code runwaySeconds} in the details: every
 * instance rides it out on its buffers, and turning every instance DOWN at once would make a load balancer stop the
 * very inserts that still work. Alert on the runway (the {@code snowkey.segment.runway} gauge) for that case.
 */
final class SegmentHealth {

    private SegmentHealth() {
    }

    /** Why segment keys cannot be had now, or null. */
    static String problem(final List<SegmentStatus> statuses) {
        for (SegmentStatus each : sorted(statuses)) {
            if (each.stoppedBecause() != null) {
                return "segment sequence '" + each.key() + "' stopped for good: " + each.stoppedBecause();
            }
            if (each.remaining() == 0 && each.lastFailure() != null) {
                return "segment sequence '" + each.key() + "' has no keys left and its allocator fails: " + each.lastFailure();
            }
        }
        return null;
    }

    /** One map per sequence, in key order, never with a null value (Spring Boot rejects null details). */
    static List<Map<String, Object>> details(final List<SegmentStatus> statuses) {
        List<Map<String, Object>> result = new ArrayList<>();
        for (SegmentStatus each : sorted(statuses)) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("key", each.key());
            details.put("allocator", SnowKeyDescriptors.shown(each.allocator()));
            details.put("step", each.step());
            details.put("remaining", each.remaining());
            details.put("keysPerSecond", round(each.keysPerSecond()));
            if (Double.isFinite(each.runwaySeconds())) {
                details.put("runwaySeconds", round(each.runwaySeconds()));
            } else {
                details.put("runway", "unbounded: no keys issued recently");
            }
            details.put("rangesFetched", each.rangesFetched());
            details.put("fetchFailures", each.fetchFailures());
            details.put("lastFetchMillis", millis(each.lastFetchNanos()));
            if (each.lastFailure() != null) {
                details.put("lastFailure", SnowKeyDescriptors.shown(each.lastFailure()));
            }
            if (each.stoppedBecause() != null) {
                details.put("stoppedBecause", SnowKeyDescriptors.shown(each.stoppedBecause()));
            }
            result.add(details);
        }
        return result;
    }

    static List<SegmentStatus> sorted(final List<SegmentStatus> statuses) {
        return statuses.stream().sorted(Comparator.comparing(SegmentStatus::key).thenComparing(SegmentStatus::allocator)).toList();
    }

    static double round(final double value) {
        return Math.round(value * 10) / 10.0;
    }

    static double millis(final long nanos) {
        return Math.round(nanos / 1_000.0) / 1_000.0;
    }
}
