package org.snowkey.lease.admin;

import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;

import org.snowkey.segment.store.RangeLog;
import org.snowkey.segment.store.RangeLogEntry;
import org.snowkey.segment.store.RangeReconciliation;

/**
 * The segment commands of the operations tool over any {@link RangeLog}: {@code ranges} lists a key's most recent
 * ranges (or, without a key, the keys and their counters); {@code reconcile} checks the log against the allocator
 * contract (docs/design.md, "Segment mode"). Gaps are harmless and reported as gaps; an overlap means ids may repeat,
 * so it goes to the error stream in capitals and the exit status says so.
 */
public final class RangeAdmin {

    /** Exit status of {@code reconcile} when a range was handed out twice, apart from 1 (the store could not be read). */
    public static final int OVERLAP = 3;

    /** Ranges listed when {@code --limit} is not given. */
    public static final int DEFAULT_LIST_LIMIT = 20;

    /** Log entries reconciled per key when {@code --limit} is not given. */
    public static final int DEFAULT_RECONCILE_LIMIT = 10_000;

    private final RangeLog log;

    private final PrintStream out;

    private final PrintStream err;

    public RangeAdmin(final RangeLog log, final PrintStream out, final PrintStream err) {
        this.log = log;
        this.out = out;
        this.err = err;
    }

    /**
     * Lists the key's {@code limit} most recent ranges, oldest first, with its counter; without a key, every key and its
     * counter.
     *
     * @return 0, or 1 when the key is unknown to the store
     */
    public int ranges(final String key, final int limit) {
        if (key == null) {
            List<String> keys = log.keys();
            out.printf("%d segment key(s) in %s%n", keys.size(), log.describe());
            out.printf("%-60s %s%n", "KEY", "NEXT-VALUE");
            for (String each : keys) {
                out.printf("%-60s %s%n", each, counter(log.nextValue(each)));
            }
            return 0;
        }
        List<RangeLogEntry> entries = log.recent(key, limit);
        OptionalLong next = log.nextValue(key);
        if (entries.isEmpty() && next.isEmpty()) {
            err.printf("segment key '%s' has no counter and no logged range in %s; keys there: %s%n", key, log.describe(), log.keys());
            return 1;
        }
        out.printf("segment key '%s' in %s: next value %s; the %d most recent range(s), oldest first%n", key, log.describe(), counter(next), entries.size());
        out.printf("%-20s %-20s %-12s %-40s %s%n", "FIRST", "LAST", "SIZE", "OWNER", "ALLOCATED-AT");
        for (RangeLogEntry each : entries) {
            out.printf("%-20d %-20d %-12d %-40s %s%n", each.range().first(), each.range().last(), each.range().size(), each.owner(),
                    Instant.ofEpochMilli(each.allocatedAtMillis()));
        }
        return 0;
    }

    /**
     * Reconciles the {@code limit} most recent log entries of the key, or of every key, with its counter.
     *
     * @return 0 when no number was handed out twice (gaps or not), {@link #OVERLAP} otherwise, 1 when the key is unknown
     */
    public int reconcile(final String key, final int limit) {
        List<String> keys = key == null ? log.keys() : List.of(key);
        if (key != null && log.recent(key, 1).isEmpty() && log.nextValue(key).isEmpty()) {
            err.printf("segment key '%s' has no counter and no logged range in %s; keys there: %s%n", key, log.describe(), log.keys());
            return 1;
        }
        out.printf("reconciling %d segment key(s) in %s (up to %d most recent ranges each)%n", keys.size(), log.describe(), limit);
        int broken = 0;
        long gaps = 0;
        for (String each : keys) {
            RangeReconciliation result = RangeReconciliation.ofLog(log, each, limit);
            out.println(result.report());
            gaps += result.gaps().size();
            if (!result.consistent()) {
                broken++;
                err.println("OVERLAP: " + String.join("; ", result.overlaps()));
            }
        }
        if (broken > 0) {
            err.printf("RECONCILIATION FAILED: %d of %d key(s) have numbers handed out twice, so ids may repeat. Stop the writers of those keys and raise "
                    + "each counter above its highest logged range before they write again.%n", broken, keys.size());
            return OVERLAP;
        }
        out.printf("no overlap in %d key(s); %d gap(s) (numbers never issued: crashes, unused tails, raised start values, lost answers)%n", keys.size(), gaps);
        return 0;
    }

    private static String counter(final OptionalLong next) {
        return next.isPresent() ? String.valueOf(next.getAsLong()) : "(no counter)";
    }
}
