package org.snowkey.keygen.generator;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One sequence stream: the ids of one table (or of all tables of a {@code global} key generator).
 *
 * <p>An id is drawn in two parts (docs/design.md, "One id space per worker id"): the timestamp and the high sequence
 * from the generator's {@link IdSpace}, one counter shared by every stream on the worker id, and the low L bits from
 * this stream's own cycle. The shared counter makes ids unique across streams and strictly increasing within each
 * stream (also across lease changes: the next grant continues in a later millisecond); the cycle makes consecutive
 * ids of this stream run through {@code id % 2^L} whatever the other streams do.
 */
public final class SequenceStream {

    private final String name;

    private final IdSpace idSpace;

    /** Ids this stream issued; its low L bits are the low bits of the stream's next id. */
    private final AtomicLong cycle = new AtomicLong();

    SequenceStream(final String name, final IdSpace idSpace) {
        this.name = name;
        this.idSpace = idSpace;
    }

    public String name() {
        return name;
    }

    /** The next id. */
    public long nextId() {
        IdSpace.Reservation reserved = idSpace.reserve(1);
        return reserved.holdings().compose(reserved.last(), cycle.getAndIncrement());
    }

    /** The next {@code count} ids, increasing in this stream, reserved in one atomic step. */
    public IdBatch nextIds(final int count) {
        if (count < 1) {
            throw new IllegalArgumentException("a batch holds at least one id, asked for " + count);
        }
        IdSpace.Reservation reserved = idSpace.reserve(count);
        return new IdBatch(reserved.holdings(), reserved.last() - count + 1, cycle.getAndAdd(count), count);
    }

    /** How far the worker id's logical timestamp lags the wall clock: the ids a burst can take at once, in ms. */
    public long timeCacheMillis() {
        return idSpace.timeCacheMillis();
    }

    /** Ids this stream issued since it was created (for metrics; exact once calls have returned). */
    public long idsIssued() {
        return cycle.get();
    }

    @Override
    public String toString() {
        return "SequenceStream[" + name + " in " + idSpace + "]";
    }
}
