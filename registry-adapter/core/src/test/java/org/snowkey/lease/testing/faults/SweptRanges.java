package org.snowkey.lease.testing.faults;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.RangeAllocator;
import org.snowkey.keygen.segment.RangeUnavailableException;

/**
 * The ranges of one run of a store-fault sweep scenario, whatever the allocator: each allocation retried as the segment
 * generator retries a failed fetch, and the check every scenario ends with: no number in two ranges of one key.
 */
public final class SweptRanges {

    private final List<NumberRange> ranges = new ArrayList<>();

    /** A failed allocation is retried, as the segment generator retries a fetch (see {@link RetriedCall}). */
    public NumberRange allocate(final RangeAllocator allocator, final String key, final long size) {
        NumberRange range = RetriedCall.until(() -> allocator.allocate(key, size), RangeUnavailableException.class::isInstance);
        ranges.add(range);
        return range;
    }

    /** No two ranges handed out share a number (all of one key). */
    public void checkDisjoint() {
        List<NumberRange> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparingLong(NumberRange::first));
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).first() <= sorted.get(i - 1).last()) {
                throw new AssertionError("ranges overlap: " + sorted);
            }
        }
    }
}
