package org.snowkey.keygen.segment;

/**
 * A range of keys {@code first..last} (both included) that an allocator handed to one sequence, once and for
 * good: no other allocation of the same key, in any process, ever overlaps it (docs/design.md, "Segment mode").
 *
 * @param first the first key of the range, at least 1
 * @param last  the last key of the range, at most {@link #MAX_KEY}
 */
public record NumberRange(long first, long last) {

    /** The highest key segment mode issues: 2^53 - 1, the last integer a JavaScript number or a JSON double holds exactly. */
    public static final long MAX_KEY = (1L << 53) - 1;

    public NumberRange {
        if (first < 1 || last < first || last > MAX_KEY) {
            throw new IllegalArgumentException("not a range of segment keys: " + first + ".." + last + " (keys run from 1 to 2^53 - 1)");
        }
    }

    /** How many keys the range holds. */
    public long size() {
        return last - first + 1;
    }

    @Override
    public String toString() {
        return first + ".." + last;
    }
}
