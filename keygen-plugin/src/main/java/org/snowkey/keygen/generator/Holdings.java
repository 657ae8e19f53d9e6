package org.snowkey.keygen.generator;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;

/**
 * The worker ids a generator issues on at once, one grant each, ordered by worker id (docs/design.md, "Holdings: more
 * worker ids for a hot generator"). With {@code K} holdings the id space counts one combined counter
 * {@code c = h * K + rank}: value {@code c} stands for high counter {@code h = c / K} (timestamp and high sequence) on
 * the worker id of rank {@code c % K}. Every worker id so gets each high counter value at most once, and since the
 * high sequence sits above the worker id bits and the ranks follow the worker ids, a larger {@code c} is a larger id:
 * the ids of every stream keep increasing. With one holding, {@code c = h}.
 *
 * <p>Immutable: a change of the set (a holding added, given back or lost) makes a new instance and a new counter.
 */
final class Holdings {

    private final IdLayout layout;

    private final LeaseGrant[] grants;

    private final int[] workerIds;

    private final int count;

    /** Each rank's worker id where it sits in an id, {@code workerId << L}: with the two below, an id is three operations. */
    private final long[] workerIdBits;

    /** Where the high counter sits in an id, {@code W + L}. */
    private final int highCounterShift;

    /** The low L bits of an id, a stream's cycle. */
    private final long cycleMask;

    /** {@code log2(count)} when the count is a power of two (1, 2, 4, ...: what growth doubles to), else -1. */
    private final int countShift;

    /**
     * For any other count K: {@code c / K = hi(c * reciprocal) >>> reciprocalShift} for every {@code 0 <= c < 2^63}
     * ({@link #quotient}), with {@code reciprocal = floor(2^(63 + l) / K) + 1} as an unsigned 64-bit number and
     * {@code l = ceil(log2 K)}, {@code reciprocalShift = l - 1}. Since {@code 2^(63+l) < reciprocal * K <= 2^(63+l) + 2^l},
     * the product's error stays below one quotient step for every dividend below {@code 2^63} (Granlund and Montgomery,
     * "Division by invariant integers using multiplication", 1994, theorem 4.2).
     */
    private final long reciprocal;

    private final int reciprocalShift;

    private Holdings(final IdLayout layout, final LeaseGrant[] grants) {
        this.layout = layout;
        this.grants = grants;
        this.count = grants.length;
        this.workerIds = new int[count];
        this.workerIdBits = new long[count];
        for (int i = 0; i < count; i++) {
            workerIds[i] = grants[i].workerId();
            workerIdBits[i] = (long) workerIds[i] << layout.sequenceLowBits();
        }
        this.highCounterShift = layout.workerIdBits() + layout.sequenceLowBits();
        this.cycleMask = (1L << layout.sequenceLowBits()) - 1;
        boolean powerOfTwo = Integer.bitCount(count) == 1;
        this.countShift = powerOfTwo ? Integer.numberOfTrailingZeros(count) : -1;
        int l = 32 - Integer.numberOfLeadingZeros(count - 1);
        this.reciprocal = powerOfTwo ? 0 : BigInteger.ONE.shiftLeft(63 + l).divide(BigInteger.valueOf(count)).add(BigInteger.ONE).longValue();
        this.reciprocalShift = l - 1;
    }

    /** The holdings of these grants (of distinct worker ids), ranked by worker id. */
    static Holdings of(final IdLayout layout, final List<LeaseGrant> grants) {
        LeaseGrant[] sorted = grants.toArray(new LeaseGrant[0]);
        Arrays.sort(sorted, Comparator.comparingInt(LeaseGrant::workerId));
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i].workerId() == sorted[i - 1].workerId()) {
                throw new IllegalStateException("two holdings of one generator on worker id " + sorted[i].workerId() + ": " + sorted[i - 1] + " and " + sorted[i]);
            }
        }
        return new Holdings(layout, sorted);
    }

    int count() {
        return count;
    }

    LeaseGrant grant(final int rank) {
        return grants[rank];
    }

    /** The rank of combined counter value {@code c}: whose worker id the id of {@code c} carries. */
    int rankOf(final long combined) {
        return (int) (combined - quotient(combined) * count);
    }

    /** The high counter value ({@code t * 2^(S-L) + high sequence}) of combined counter value {@code c}. */
    long highOf(final long combined) {
        return quotient(combined);
    }

    /**
     * {@code floor(c / K)}, for {@code c >= 0} without a division instruction: a shift when K is a power of two, else a
     * multiplication by the reciprocal ({@link #reciprocal}). A division costs as much as the compare-and-set itself, and
     * it sits on every id's path (a compare-and-set does not start before the instructions ahead of it finished).
     */
    long quotient(final long combined) {
        if (combined < 0) {
            // Only the value before a counter's first (its start minus one) can be negative, at a logical timestamp 0.
            return Math.floorDiv(combined, count);
        }
        if (countShift >= 0) {
            return combined >>> countShift;
        }
        // The high half of the unsigned 128-bit product: Math.multiplyHigh is signed, and the reciprocal's top bit is set.
        long high = Math.multiplyHigh(combined, reciprocal) + combined;
        return high >>> reciprocalShift;
    }

    /** The logical timestamp of combined counter value {@code c}. */
    long timestampOf(final long combined) {
        return layout.timestampOfHigh(highOf(combined));
    }

    /** The first combined counter value of a logical timestamp. */
    long counterAt(final long logicalTimestamp) {
        return layout.highCounterAt(logicalTimestamp) * count;
    }

    /** Combined counter values per millisecond: every holding's high sequence once. */
    long perMillisecond() {
        return layout.sustainedIdsPerMillisecond() * count;
    }

    /**
     * The id of combined counter value {@code c}, its low L bits from a stream's cycle position: one {@link #quotient}
     * gives both the high counter and the rank. {@code IdLayout.compose(IdLayout.counterOf(h, cycle), workerId)} is
     * {@code h << (W + L) | workerId << L | cycle mod 2^L} (the timestamp and high sequence are the high counter's bits
     * in a row); written out here because every field read on an id's path costs (HoldingsArithmeticTest checks both agree).
     */
    long compose(final long combined, final long cycle) {
        long[] bits = workerIdBits;
        long high = quotient(combined);
        // Masked by the array's length (the count, when a power of two), so the JIT drops the index check.
        int rank = countShift >= 0 ? (int) combined & (bits.length - 1) : (int) (combined - high * count);
        return high << highCounterShift | bits[rank] | cycle & cycleMask;
    }

    /**
     * The last combined counter value of rank {@code rank} at or below {@code last}, or {@code Long.MIN_VALUE} when
     * the rank has none at or above {@code first}: what that holding issued of the values {@code first..last}.
     */
    long lastOfRank(final int rank, final long first, final long last) {
        if (last < first) {
            return Long.MIN_VALUE;
        }
        long value = last - Math.floorMod(last - rank, (long) count);
        return value < first ? Long.MIN_VALUE : value;
    }

    /** The worker ids, by rank. */
    int[] workerIds() {
        return workerIds.clone();
    }

    @Override
    public String toString() {
        return count == 1 ? "worker id " + workerIds[0] : "worker ids " + Arrays.toString(workerIds);
    }
}
