package org.snowkey.keygen.generator;

import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * {@code count} increasing ids of one stream, reserved by one compare-and-set on the id space's counter, their low
 * bits continuing the stream's cycle. The ids are composed when read, so a batch of any size costs the same to hand
 * out. A generator with several holdings spreads a batch over their worker ids ({@link Holdings}).
 */
public final class IdBatch extends AbstractList<Long> implements RandomAccess {

    private final Holdings holdings;

    private final long first;

    private final long firstCycle;

    private final int count;

    IdBatch(final Holdings holdings, final long first, final long firstCycle, final int count) {
        this.holdings = holdings;
        this.first = first;
        this.firstCycle = firstCycle;
        this.count = count;
    }

    @Override
    public Long get(final int index) {
        return id(index);
    }

    /** The id at {@code index}, unboxed. */
    public long id(final int index) {
        if (index < 0 || index >= count) {
            throw new IndexOutOfBoundsException("index " + index + " of a batch of " + count);
        }
        return holdings.compose(first + index, firstCycle + index);
    }

    @Override
    public int size() {
        return count;
    }
}
