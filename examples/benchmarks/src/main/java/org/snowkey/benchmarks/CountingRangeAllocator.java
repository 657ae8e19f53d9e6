package org.snowkey.benchmarks;

import java.util.concurrent.atomic.AtomicLong;

import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.RangeAllocator;

/**
 * An in-memory allocator for the segment benchmarks: one {@code getAndAdd} per range, like CosId's
 * {@code IdSegmentDistributor.Atomic}, so the comparison measures the sequences, not a store. It counts its calls
 * (the allocator round trips a real table or ZooKeeper node would serve).
 */
final class CountingRangeAllocator implements RangeAllocator {

    private final AtomicLong next = new AtomicLong(1);

    private final AtomicLong calls = new AtomicLong();

    @Override
    public NumberRange allocate(final String key, final long size) {
        calls.incrementAndGet();
        long first = next.getAndAdd(size);
        return new NumberRange(first, first + size - 1);
    }

    long calls() {
        return calls.get();
    }

    @Override
    public String describe() {
        return "in-memory benchmark allocator";
    }
}
