package org.snowkey.keygen.segment;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One range being issued from memory. Taking keys is one {@code getAndAdd} on the cursor: the keys below the
 * cursor's old value plus the count are the caller's, and a cursor past {@link #last} means the range is used up
 * (it keeps growing harmlessly as late callers find out; it stays far below overflow, since keys are below 2^53).
 */
final class Segment {

    final long first;

    final long last;

    /** The key whose taking starts the fetch of the next range. */
    final long prefetchAt;

    private final AtomicLong cursor;

    Segment(final NumberRange range, final int prefetchPercent) {
        this.first = range.first();
        this.last = range.last();
        this.prefetchAt = first + (range.size() - 1) * prefetchPercent / 100;
        this.cursor = new AtomicLong(first);
    }

    /**
     * Takes up to {@code count} keys.
     *
     * @return the first key taken; the caller owns {@code min(count, last - start + 1)} keys from it, none when the
     *         result lies past {@link #last}
     */
    long take(final int count) {
        return cursor.getAndAdd(count);
    }

    /** Keys not handed out yet. */
    long remaining() {
        return Math.max(0, last - cursor.get() + 1);
    }

    /** Keys handed out so far. */
    long used() {
        return Math.min(last + 1, cursor.get()) - first;
    }

    /** Whether the slice starting at {@code start} of {@code count} keys took the key that starts the next fetch. */
    boolean crossesPrefetchPoint(final long start, final int count) {
        return start <= prefetchAt && prefetchAt - start < count;
    }

    @Override
    public String toString() {
        return first + ".." + last;
    }
}
