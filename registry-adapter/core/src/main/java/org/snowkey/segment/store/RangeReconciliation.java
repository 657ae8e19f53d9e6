package org.snowkey.segment.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;

import org.snowkey.keygen.segment.NumberRange;

/**
 * Checks ranges of one key against the allocator contract: sorted by first number, each range starts at the previous
 * range's last + 1. Numbers between two ranges are a <em>gap</em> (harmless: a crash, an unused tail, a raised start
 * value, an answer that never arrived); numbers in two ranges are an <em>overlap</em> (two holders of the same keys:
 * the store or its log is broken, and ids may repeat).
 *
 * <p>Run over the range log it checks the store; run over the ranges callers actually received it also shows the
 * ranges the store handed out that nobody got (lost answers) as gaps. With the key's counter, a counter at or below
 * the log's highest number is an overlap to come (the next allocation would hand out logged numbers), and a counter
 * above it a gap at the end.
 *
 * @param key      the sequence key
 * @param ranges   the ranges checked, sorted by first number
 * @param gaps     numbers no range holds, between the first and the last range (and up to the counter)
 * @param overlaps what went wrong, one line each; empty when the contract held
 */
public record RangeReconciliation(String key, List<NumberRange> ranges, List<NumberRange> gaps, List<String> overlaps) {

    public RangeReconciliation {
        ranges = List.copyOf(ranges);
        gaps = List.copyOf(gaps);
        overlaps = List.copyOf(overlaps);
    }

    /**
     * @param nextValue the key's counter (first number not handed out), or empty to check the ranges alone
     */
    public static RangeReconciliation of(final String key, final Collection<NumberRange> ranges, final OptionalLong nextValue) {
        List<NumberRange> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparingLong(NumberRange::first).thenComparingLong(NumberRange::last));
        List<NumberRange> gaps = new ArrayList<>();
        List<String> overlaps = new ArrayList<>();
        // The range reaching highest so far: a range nested in an earlier one is an overlap even when its neighbour is not.
        NumberRange highest = null;
        for (NumberRange each : sorted) {
            if (highest != null) {
                if (each.first() <= highest.last()) {
                    overlaps.add("ranges " + highest + " and " + each + " share " + new NumberRange(each.first(), Math.min(each.last(), highest.last())));
                } else if (each.first() > highest.last() + 1) {
                    gaps.add(new NumberRange(highest.last() + 1, each.first() - 1));
                }
            }
            if (highest == null || each.last() > highest.last()) {
                highest = each;
            }
        }
        if (highest != null && nextValue.isPresent()) {
            long next = nextValue.getAsLong();
            if (next <= highest.last()) {
                overlaps.add("the counter of key '" + key + "' is at " + next + ", not above range " + highest
                        + ": its next allocation would hand out numbers already handed out");
            } else if (next > highest.last() + 1) {
                gaps.add(new NumberRange(highest.last() + 1, Math.min(next - 1, NumberRange.MAX_KEY)));
            }
        }
        return new RangeReconciliation(key, sorted, gaps, overlaps);
    }

    /**
     * Reconciles the {@code limit} most recent log entries of a key with its counter. The log is read before the
     * counter: a counter only grows, so "counter not above the log" is never a false alarm; an allocation committed
     * between the two reads can only show as a gap at the end, which the next run no longer reports.
     */
    public static RangeReconciliation ofLog(final RangeLog log, final String key, final int limit) {
        List<NumberRange> ranges = log.recent(key, limit).stream().map(RangeLogEntry::range).toList();
        return of(key, ranges, log.nextValue(key));
    }

    /** Whether no number was handed out twice. */
    public boolean consistent() {
        return overlaps.isEmpty();
    }

    /**
     * The loud failure operators and tests want.
     *
     * @throws RangeOverlapException listing every overlap
     */
    public RangeReconciliation requireNoOverlap() {
        if (!consistent()) {
            throw new RangeOverlapException("SnowKey segment key '" + key + "' has ranges handed out twice (ids may repeat; stop its writers and "
                    + "raise the counter above every logged range): " + String.join("; ", overlaps));
        }
        return this;
    }

    /** A report for the operations command, one line per finding. */
    public String report() {
        StringBuilder result = new StringBuilder();
        result.append("key '").append(key).append("': ").append(ranges.size()).append(" ranges");
        if (!ranges.isEmpty()) {
            result.append(" from ").append(ranges.get(0).first()).append(" to ").append(ranges.stream().mapToLong(NumberRange::last).max().getAsLong());
        }
        result.append(", ").append(gaps.size()).append(" gaps, ").append(overlaps.size()).append(" overlaps").append(consistent() ? " (OK)" : " (BROKEN)");
        gaps.forEach(each -> result.append("\n  gap ").append(each).append(" (").append(each.size()).append(" numbers never issued)"));
        overlaps.forEach(each -> result.append("\n  OVERLAP ").append(each));
        return result.toString();
    }
}
