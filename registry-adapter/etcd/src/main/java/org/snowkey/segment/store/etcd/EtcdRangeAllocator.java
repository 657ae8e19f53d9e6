package org.snowkey.segment.store.etcd;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.RangeAllocator;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.keygen.segment.StartValues;
import org.snowkey.segment.store.CounterRanges;
import org.snowkey.segment.store.RangeLogJson;
import org.snowkey.segment.store.SegmentKeys;
import org.snowkey.store.etcd.EtcdClient;
import org.snowkey.store.etcd.EtcdKeyValue;
import org.snowkey.store.etcd.EtcdTxn;

/**
 * Ranges from a counter key per sequence key (layout in {@link EtcdSegmentKeys}).
 *
 * <p>An allocation reads the counter, its {@code mod_revision} and the newest log entry at one revision (a read-only
 * transaction), and refuses a range that would start at or below the end of the newest logged range (a counter set back
 * by hand). Then it runs ONE transaction: if the counter's
 * {@code mod_revision} is still the one read (or, for a key without a counter, the counter is still absent) and the
 * range's log entry does not exist, put the counter at the range's last + 1 and put the log entry. etcd applies both
 * or neither. A concurrent allocation that got there first makes the compare fail: this one reads again and retries,
 * so two callers never get the same numbers. A transaction that was applied but whose answer was lost leaves a logged
 * range nobody uses, a gap: the next call reads the advanced counter.
 *
 * <p>A key's counter starts at its start value, or above every logged range of the key should the counter have been
 * deleted by hand; a counter below the start value is raised in the next allocation (the skipped numbers are a gap
 * in the log). Ranges end at 2^53 - 1 at the latest. The log keeps every entry: a range request reads the newest
 * ones by key order, so a long log costs disk space, not readability.
 */
public final class EtcdRangeAllocator implements RangeAllocator {

    /** Conflicts mean other allocators are progressing; one caller losing every race this long means something is wrong. */
    private static final long GIVE_UP_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final EtcdSegmentKeys keys;

    private final String owner;

    private final StartValues starts;

    /**
     * @param client the etcd client; the caller closes it
     * @param owner written into each log entry, to tell who took a range
     * @param starts the first number of each key
     */
    public EtcdRangeAllocator(final EtcdClient client, final String owner, final StartValues starts) {
        this.keys = new EtcdSegmentKeys(client);
        this.owner = SegmentKeys.checkOwner(owner);
        this.starts = starts;
    }

    @Override
    public NumberRange allocate(final String key, final long size) {
        SegmentKeys.check(key);
        long wanted = Math.min(SegmentKeys.checkSize(key, size), NumberRange.MAX_KEY);
        String counterKey = keys.counter(key);
        long deadline = System.nanoTime() + GIVE_UP_NANOS;
        int conflicts = 0;
        while (true) {
            // The counter and the newest log entry at one revision: only an allocation adds an entry, and it moves the counter too.
            List<EtcdKeyValue> snapshot = keys.snapshot(counterKey, keys.log(key));
            Optional<EtcdKeyValue> counter = snapshot.stream().filter(each -> each.key().equals(counterKey)).findFirst();
            long highestLogged = snapshot.stream().filter(each -> !each.key().equals(counterKey)).findFirst()
                    .map(each -> RangeLogJson.read(key, each.key(), each.value()).range().last()).orElse(0L);
            EtcdTxn txn = new EtcdTxn();
            long next;
            if (counter.isPresent()) {
                next = keys.parseCounter(counter.get());
                txn.ifModRevision(counterKey, counter.get().modRevision());
            } else {
                // No counter (a new key, or one deleted by hand): start above everything the log holds.
                next = highestLogged + 1;
                txn.ifAbsent(counterKey);
            }
            NumberRange range = CounterRanges.next(key, counterKey, next, starts, wanted, keys.describe());
            if (range.first() <= highestLogged) {
                throw setBack(key, counterKey, "the newest range logged under " + keys.log(key) + " ends at " + highestLogged + ", at or above " + range.first());
            }
            String entryKey = keys.entry(key, range);
            txn.ifAbsent(entryKey).put(counterKey, EtcdSegmentKeys.counterText(range.last() + 1))
                    .put(entryKey, RangeLogJson.write(range, owner, System.currentTimeMillis())).otherwiseGet(counterKey);
            EtcdTxn.Result result;
            try {
                result = keys.client().txn(txn);
            } catch (final IllegalStateException ex) {
                throw keys.failure("allocate " + range + " of key '" + key + "' at " + counterKey, ex);
            }
            if (result.succeeded()) {
                return range;
            }
            requireCounterMoved(key, counterKey, counter, result.read(), entryKey);
            conflicts++;
            if (System.nanoTime() - deadline > 0) {
                throw new RangeUnavailableException("SnowKey could not allocate numbers of key '" + key + "' on " + keys.describe() + ": " + conflicts
                        + " allocations by others won the race for " + counterKey + " in a row");
            }
        }
    }

    /**
     * A failed compare is a race lost when the counter changed since it was read. When it did not, the range's log
     * entry exists already: the counter was set back by hand below a logged range, and allocating on from it would hand
     * out numbers twice. That fails closed.
     */
    private void requireCounterMoved(final String key, final String counterKey, final Optional<EtcdKeyValue> read, final List<EtcdKeyValue> now,
                                     final String entryKey) {
        long revisionRead = read.map(EtcdKeyValue::modRevision).orElse(0L);
        long revisionNow = now.stream().filter(each -> each.key().equals(counterKey)).mapToLong(EtcdKeyValue::modRevision).findFirst().orElse(0L);
        if (revisionRead == revisionNow) {
            throw setBack(key, counterKey, "the log entry " + entryKey + " exists already");
        }
    }

    private RangeUnavailableException setBack(final String key, final String counterKey, final String evidence) {
        return new RangeUnavailableException("SnowKey refuses to allocate numbers of key '" + key + "' on " + keys.describe() + ": " + evidence
                + ", so the counter " + counterKey + " lies below a logged range (set back by hand?); set it above every range logged under " + keys.log(key));
    }

    @Override
    public String describe() {
        return keys.describe();
    }

    @Override
    public String toString() {
        return "EtcdRangeAllocator[" + describe() + ", owner=" + owner + "]";
    }
}
