package org.snowkey.keygen.generator;

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

    private Holdings(final IdLayout layout, final LeaseGrant[] grants) {
        this.layout = layout;
        this.grants = grants;
        this.count = grants.length;
        this.workerIds = new int[count];
        for (int i = 0; i < count; i++) {
            workerIds[i] = grants[i].workerId();
        }
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
        return count == 1 ? 0 : (int) (combined % count);
    }

    /** The high counter value ({@code t * 2^(S-L) + high sequence}) of combined counter value {@code c}. */
    long highOf(final long combined) {
        return count == 1 ? combined : combined / count;
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

    /** The id of combined counter value {@code c}, its low L bits from a stream's cycle position. */
    long compose(final long combined, final long cycle) {
        return layout.compose(layout.counterOf(highOf(combined), cycle), workerIds[rankOf(combined)]);
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
