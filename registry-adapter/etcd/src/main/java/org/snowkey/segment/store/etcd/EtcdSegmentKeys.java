package org.snowkey.segment.store.etcd;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.segment.store.SegmentKeys;
import org.snowkey.store.StoreUnavailableException;
import org.snowkey.store.etcd.EtcdClient;
import org.snowkey.store.etcd.EtcdKeyValue;
import org.snowkey.store.etcd.EtcdTxn;

/**
 * The etcd key layout of segment mode, beside the worker-id leases under {@code <namespace>/snowkey/}, and what
 * the allocator and the log share:
 * <pre>
 * &lt;namespace&gt;/snowkey/segments/&lt;key&gt;                    next value (decimal text)
 * &lt;namespace&gt;/snowkey/segment-log/&lt;key&gt;/&lt;first&gt;         one entry per range, JSON; first as 16 digits
 * </pre>
 * A sequence key is one path element ({@link SegmentKeys#pathElement}), so that no key's prefix holds another's. A log
 * entry is named by its range's first number, zero-padded so that etcd's key order is the ranges' order: the newest
 * entries are one sorted, limited range request away, and an entry's name can never be written twice.
 */
final class EtcdSegmentKeys {

    /** 2^53 - 1 has 16 digits. */
    private static final String ENTRY_FORMAT = "%016d";

    private final EtcdClient client;

    private final String root;

    EtcdSegmentKeys(final EtcdClient client) {
        this.client = client;
        this.root = client.settings().root();
    }

    EtcdClient client() {
        return client;
    }

    String counters() {
        return root + "/" + SegmentKeys.COUNTERS_NODE + "/";
    }

    String counter(final String key) {
        return counters() + SegmentKeys.pathElement(key);
    }

    String log(final String key) {
        return root + "/" + SegmentKeys.LOGS_NODE + "/" + SegmentKeys.pathElement(key) + "/";
    }

    String entry(final String key, final NumberRange range) {
        return log(key) + String.format(ENTRY_FORMAT, range.first());
    }

    String describe() {
        return client.describe() + " " + counters();
    }

    static byte[] counterText(final long nextValue) {
        return Long.toString(nextValue).getBytes(StandardCharsets.US_ASCII);
    }

    /** The counter's value; a key holding anything else is reported with its content, never taken for a number. */
    long parseCounter(final EtcdKeyValue counter) {
        String text = counter.valueText();
        try {
            long value = Long.parseLong(text.trim());
            if (value < 1) {
                throw new NumberFormatException("below 1");
            }
            return value;
        } catch (final NumberFormatException ex) {
            throw new RangeUnavailableException("SnowKey found the segment counter " + counter.key() + " on " + client.describe() + " holding '" + text
                    + "', not a number from 1: set it by hand above every range logged under its segment-log prefix", ex);
        }
    }

    Optional<EtcdKeyValue> read(final String key, final String what) {
        try {
            return client.get(key);
        } catch (final StoreUnavailableException ex) {
            throw failure("read " + what + " " + key, ex);
        }
    }

    /** The counter (if it exists) and the highest entry under {@code log} (if any), read at one revision. */
    List<EtcdKeyValue> snapshot(final String counter, final String log) {
        try {
            return client.txn(new EtcdTxn().get(counter).getHighest(log)).read();
        } catch (final RuntimeException ex) {
            throw failure("read segment counter " + counter + " and the newest entry under " + log, ex);
        }
    }

    RangeUnavailableException failure(final String operation, final RuntimeException ex) {
        // A failed write may still have been applied (a lost answer): harmless, the next allocation reads the counter again.
        return new RangeUnavailableException("SnowKey could not " + operation + " on " + client.describe() + ": " + ex.getMessage(), ex);
    }
}
