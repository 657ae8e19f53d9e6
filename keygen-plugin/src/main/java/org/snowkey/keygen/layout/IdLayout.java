package org.snowkey.keygen.layout;

import java.time.Instant;

/**
 * The bit layout of a SnowKey id (docs/design.md, "The id").
 *
 * <pre>
 * 63      sign (always 0)
 * 62..22  timestamp, ms since the epoch (41 bits)
 * ..      sequence, high part (S - L bits)
 * ..      worker id (W bits)
 * L-1..0  sequence, low part (L bits)
 * </pre>
 *
 * <p>The sequence sits partly below the worker id so that consecutive ids of one worker cycle through
 * {@code id % 2^L}: sharding by {@code id % 2^k} (k &lt;= L) stays balanced at any insert rate.
 *
 * <p>A counter value {@code c = t * 2^S + s} and a worker id make an id ({@link #compose(long, int)}). The generator
 * draws the part above the low bits, the high counter {@code h = t * 2^(S-L) + (s >> L)}, from one counter per
 * worker id grant shared by every table, and the low L bits from a cycle of the table
 * ({@link #counterOf(long, long)}): ids are unique across tables and each table still cycles through
 * {@code id % 2^L}. Instances are immutable and validated by {@link #of}.
 */
public final class IdLayout {

    /** Timestamp bits: 41 bits of milliseconds last 69.7 years. */
    public static final int TIMESTAMP_BITS = 41;

    /** Worker id bits plus sequence bits: the timestamp starts at bit 22. */
    public static final int NODE_AND_SEQUENCE_BITS = 22;

    public static final int MIN_WORKER_ID_BITS = 1;

    public static final int MAX_WORKER_ID_BITS = NODE_AND_SEQUENCE_BITS - 1;

    public static final long MAX_TIMESTAMP = (1L << TIMESTAMP_BITS) - 1;

    private final int workerIdBits;

    private final int sequenceBits;

    private final int sequenceLowBits;

    private final long epochMillis;

    private final long sequenceMask;

    private final long lowMask;

    private final int highSequenceShift;

    /** S - L: the bits of the sequence drawn from the shared high counter. */
    private final int highSequenceBits;

    private IdLayout(final int workerIdBits, final int sequenceLowBits, final long epochMillis) {
        this.workerIdBits = workerIdBits;
        this.sequenceBits = NODE_AND_SEQUENCE_BITS - workerIdBits;
        this.sequenceLowBits = sequenceLowBits;
        this.epochMillis = epochMillis;
        this.sequenceMask = (1L << sequenceBits) - 1;
        this.lowMask = (1L << sequenceLowBits) - 1;
        this.highSequenceShift = workerIdBits + sequenceLowBits;
        this.highSequenceBits = sequenceBits - sequenceLowBits;
    }

    /**
     * @throws IllegalArgumentException when a parameter is out of range; the message names it
     */
    public static IdLayout of(final int workerIdBits, final int sequenceLowBits, final long epochMillis) {
        if (workerIdBits < MIN_WORKER_ID_BITS || workerIdBits > MAX_WORKER_ID_BITS) {
            throw new IllegalArgumentException("worker-id-bits must be from " + MIN_WORKER_ID_BITS + " to " + MAX_WORKER_ID_BITS + ", was " + workerIdBits);
        }
        int sequenceBits = NODE_AND_SEQUENCE_BITS - workerIdBits;
        if (sequenceLowBits < 0 || sequenceLowBits > sequenceBits) {
            throw new IllegalArgumentException("sequence-low-bits must be from 0 to " + sequenceBits + " (22 - worker-id-bits), was " + sequenceLowBits);
        }
        if (epochMillis < 0) {
            throw new IllegalArgumentException("epoch must not lie before 1970-01-01T00:00:00Z, was " + epochMillis);
        }
        return new IdLayout(workerIdBits, sequenceLowBits, epochMillis);
    }

    /** The default layout: 13 worker id bits, 1 low sequence bit, epoch 2025-01-01T00:00:00Z. */
    public static IdLayout defaults() {
        return of(13, 1, Instant.parse("2025-01-01T00:00:00Z").toEpochMilli());
    }

    /**
     * Builds the id of counter value {@code c = t * 2^S + s} for a worker.
     *
     * @param counter logical timestamp (ms since the epoch) times {@code 2^S} plus the sequence
     * @param workerId the worker id, {@code 0 <= workerId < 2^W}
     */
    public long compose(final long counter, final int workerId) {
        long timestamp = counter >>> sequenceBits;
        long sequence = counter & sequenceMask;
        return timestamp << NODE_AND_SEQUENCE_BITS
                | (sequence >>> sequenceLowBits) << highSequenceShift
                | (long) workerId << sequenceLowBits
                | sequence & lowMask;
    }

    /** Splits an id into its parts; the inverse of {@link #compose}. */
    public DecodedId decode(final long id) {
        if (id < 0) {
            throw new IllegalArgumentException("a SnowKey id is never negative, was " + id);
        }
        long timestamp = id >>> NODE_AND_SEQUENCE_BITS;
        long highSequence = (id & ((1L << NODE_AND_SEQUENCE_BITS) - 1)) >>> highSequenceShift;
        int workerId = (int) ((id >>> sequenceLowBits) & ((1L << workerIdBits) - 1));
        long sequence = highSequence << sequenceLowBits | id & lowMask;
        return new DecodedId(id, Instant.ofEpochMilli(epochMillis + timestamp), timestamp, workerId, (int) sequence);
    }

    /** The counter value of the first id (sequence 0) of a logical timestamp. */
    public long counterAt(final long logicalTimestamp) {
        return logicalTimestamp << sequenceBits;
    }

    /** The logical timestamp (ms since the epoch) of a counter value. */
    public long timestampOf(final long counter) {
        return counter >>> sequenceBits;
    }

    /** The high counter value of the first id of a logical timestamp: {@code t * 2^(S-L)}. */
    public long highCounterAt(final long logicalTimestamp) {
        return logicalTimestamp << highSequenceBits;
    }

    /** The logical timestamp of a high counter value. */
    public long timestampOfHigh(final long highCounter) {
        return highCounter >>> highSequenceBits;
    }

    /**
     * The counter value ({@code t * 2^S + s}, for {@link #compose}) of high counter value {@code highCounter} with the
     * low L bits taken from a table's cycle position {@code cycle} (any non-negative number; only its low L bits count).
     */
    public long counterOf(final long highCounter, final long cycle) {
        return highCounter << sequenceLowBits | cycle & lowMask;
    }

    /**
     * Ids one worker id can issue per millisecond over all its tables together: {@code 2^(S-L)}, one per value of the
     * shared high counter. Half of {@link #idsPerMillisecond()} at L = 1.
     */
    public long sustainedIdsPerMillisecond() {
        return 1L << highSequenceBits;
    }

    /**
     * Whether a generator can issue with this layout: it needs at least one high sequence bit (L &lt; S). At L = S
     * every id of a worker id would need a millisecond of its own.
     */
    public boolean hasHighSequenceBits() {
        return highSequenceBits > 0;
    }

    /** Milliseconds since 1970 to milliseconds since this layout's epoch. */
    public long toLogical(final long epochMillisUtc) {
        return epochMillisUtc - epochMillis;
    }

    /** Milliseconds since this layout's epoch to milliseconds since 1970. */
    public long toWallClock(final long logicalTimestamp) {
        return logicalTimestamp + epochMillis;
    }

    public int workerIdBits() {
        return workerIdBits;
    }

    public int sequenceBits() {
        return sequenceBits;
    }

    public int sequenceLowBits() {
        return sequenceLowBits;
    }

    public long epochMillis() {
        return epochMillis;
    }

    /** How many worker ids the layout has: {@code 2^W}. */
    public int workerIdCount() {
        return 1 << workerIdBits;
    }

    /**
     * Sequence values per millisecond: {@code 2^S}. A generator issues {@link #sustainedIdsPerMillisecond()} ids per
     * millisecond and worker id, because the low L bits are a per-table cycle, not fresh values.
     */
    public long idsPerMillisecond() {
        return 1L << sequenceBits;
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof IdLayout other && other.workerIdBits == workerIdBits && other.sequenceLowBits == sequenceLowBits && other.epochMillis == epochMillis;
    }

    @Override
    public int hashCode() {
        return (workerIdBits * 31 + sequenceLowBits) * 31 + Long.hashCode(epochMillis);
    }

    @Override
    public String toString() {
        return "IdLayout[worker-id-bits=" + workerIdBits + ", sequence-bits=" + sequenceBits + ", sequence-low-bits=" + sequenceLowBits
                + ", epoch=" + Instant.ofEpochMilli(epochMillis) + "]";
    }
}
