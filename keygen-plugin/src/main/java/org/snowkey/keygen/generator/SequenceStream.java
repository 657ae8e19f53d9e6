package org.snowkey.keygen.generator;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

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

    private static final VarHandle CYCLE;

    static {
        try {
            CYCLE = MethodHandles.lookup().findVarHandle(SequenceStream.class, "cycle", long.class);
        } catch (final ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final String name;

    private final IdSpace idSpace;

    /**
     * Ids this stream issued; its low L bits are the low bits of the stream's next id. Read before and written after
     * the reservation with opaque accesses, not an atomic step: an id costs one compare-and-set (on the id space's
     * counter), and a second atomic step would double it. Two calls on this stream at the same instant may take one
     * position: their ids stay unique and increasing (the high counter orders them, the low bits never do), and
     * {@code id % 2^L} stays balanced over the table's ids, not call by call (docs/design.md, "One id space per worker
     * id"). A call that fails takes no position.
     */
    @SuppressWarnings("unused")
    private long cycle;

    SequenceStream(final String name, final IdSpace idSpace) {
        this.name = name;
        this.idSpace = idSpace;
    }

    public String name() {
        return name;
    }

    /** The next id. */
    public long nextId() {
        long position = (long) CYCLE.getOpaque(this);
        long id = idSpace.nextId(position);
        CYCLE.setOpaque(this, position + 1);
        return id;
    }

    /** The next {@code count} ids, increasing in this stream, reserved in one atomic step. */
    public IdBatch nextIds(final int count) {
        if (count < 1) {
            throw new IllegalArgumentException("a batch holds at least one id, asked for " + count);
        }
        long firstPosition = (long) CYCLE.getOpaque(this);
        IdSpace.Reservation reserved = idSpace.reserve(count);
        CYCLE.setOpaque(this, firstPosition + count);
        return new IdBatch(reserved.holdings(), reserved.last() - count + 1, firstPosition, count);
    }

    /** How far the worker id's logical timestamp lags the wall clock: the ids a burst can take at once, in ms. */
    public long timeCacheMillis() {
        return idSpace.timeCacheMillis();
    }

    /**
     * Ids this stream issued since it was created (for metrics): exact once calls one after the other have returned;
     * calls on this stream at the same instant may count once (see {@link #cycle}).
     */
    public long idsIssued() {
        return (long) CYCLE.getOpaque(this);
    }

    @Override
    public String toString() {
        return "SequenceStream[" + name + " in " + idSpace + "]";
    }
}
