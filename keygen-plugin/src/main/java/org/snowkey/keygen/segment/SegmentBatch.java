package org.snowkey.keygen.segment;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;

/**
 * {@code count} keys of one sequence, taken in one atomic step per range they come from: a single piece when the
 * batch fits in the current range (the usual case), more where it crosses into the next ranges. Keys are computed
 * when read, so a batch of any size costs the same to hand out.
 */
public final class SegmentBatch extends AbstractList<Long> implements RandomAccess {

    /** First key of each piece. */
    private final long[] starts;

    /** Keys in the pieces up to and including each one: {@code ends[i]} is the batch index after piece i. */
    private final int[] ends;

    private SegmentBatch(final long[] starts, final int[] ends) {
        this.starts = starts;
        this.ends = ends;
    }

    static SegmentBatch contiguous(final long start, final int count) {
        return new SegmentBatch(new long[] {start}, new int[] {count});
    }

    /** Collects the pieces of a batch that crosses ranges. */
    static final class Builder {

        private long[] starts = new long[4];

        private int[] ends = new int[4];

        private int pieces;

        private int count;

        void add(final long start, final int length) {
            if (pieces == starts.length) {
                starts = Arrays.copyOf(starts, pieces * 2);
                ends = Arrays.copyOf(ends, pieces * 2);
            }
            count += length;
            starts[pieces] = start;
            ends[pieces] = count;
            pieces++;
        }

        int count() {
            return count;
        }

        SegmentBatch build() {
            return new SegmentBatch(Arrays.copyOf(starts, pieces), Arrays.copyOf(ends, pieces));
        }
    }

    @Override
    public Long get(final int index) {
        return key(index);
    }

    /** The key at {@code index}, unboxed. */
    public long key(final int index) {
        if (index < 0 || index >= size()) {
            throw new IndexOutOfBoundsException("index " + index + " of a batch of " + size());
        }
        if (starts.length == 1) {
            return starts[0] + index;
        }
        int piece = Arrays.binarySearch(ends, index + 1);
        piece = piece >= 0 ? piece : -piece - 1;
        int pieceBegin = piece == 0 ? 0 : ends[piece - 1];
        return starts[piece] + (index - pieceBegin);
    }

    @Override
    public int size() {
        return ends[ends.length - 1];
    }
}
