package org.snowkey.lease.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalLong;
import java.util.stream.LongStream;

import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.segment.store.RangeLogEntry;
import org.snowkey.segment.store.RangeReconciliation;

/** The verdict every segment outage test ends with, whatever store its ranges come from. */
public final class SegmentOutageChecks {

    private SegmentOutageChecks() {
    }

    /**
     * The keys a table got, in insert order, against the range log of its key: dense from 1 while the allocator
     * answered (the first {@code denseUpTo}), increasing through the outage, each inside a logged range, and no range
     * handed out twice.
     */
    public static void assertKeysSurvivedTheOutage(final String key, final List<Long> keys, final long denseUpTo, final List<RangeLogEntry> logged) {
        assertEquals(LongStream.rangeClosed(1, denseUpTo).boxed().toList(), keys.subList(0, (int) denseUpTo), "dense up to the outage");
        for (int i = 1; i < keys.size(); i++) {
            assertTrue(keys.get(i) > keys.get(i - 1), "increasing through the outage: " + keys);
        }
        List<NumberRange> ranges = logged.stream().map(RangeLogEntry::range).toList();
        RangeReconciliation.of(key, ranges, OptionalLong.empty()).requireNoOverlap();
        for (long each : keys) {
            assertTrue(ranges.stream().anyMatch(range -> range.first() <= each && each <= range.last()), "key " + each + " lies in a logged range: " + logged);
        }
    }
}
