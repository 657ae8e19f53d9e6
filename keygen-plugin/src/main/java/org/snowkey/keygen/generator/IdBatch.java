package org.snowkey.keygen.generator;

import java.util.AbstractList;
import java.util.RandomAccess;

import org.snowkey.keygen.layout.IdLayout;

/**
 * {@code count} increasing ids of one stream, reserved by one compare-and-set on the worker id's high counter, their
 * low bits continuing the stream's cycle. The ids are composed when read, so a batch of any size costs the same to
 * hand out.
 */
public final class IdBatch extends AbstractList<Long> implements RandomAccess {

    private final IdLayout layout;

    private final int workerId;

    private final long firstHigh;

    private final long firstCycle;

    private final int count;

    IdBatch(final IdLayout layout, final int workerId, final long firstHigh, final long firstCycle, final int count) {
        this.layout = layout;
        this.workerId = workerId;
        this.firstHigh = firstHigh;
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
        return layout.compose(layout.counterOf(firstHigh + index, firstCycle + index), workerId);
    }

    @Override
    public int size() {
        return count;
    }

    public int workerId() {
        return workerId;
    }
}
