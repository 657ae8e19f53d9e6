package org.snowkey.segment.store.etcd;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;

import org.snowkey.segment.store.RangeLog;
import org.snowkey.segment.store.RangeLogEntry;
import org.snowkey.segment.store.RangeLogJson;
import org.snowkey.segment.store.SegmentKeys;
import org.snowkey.store.etcd.EtcdClient;
import org.snowkey.store.etcd.EtcdKeyValue;

/** The segment keys read for operators: keys, counters and the most recent log entries (see {@link EtcdRangeAllocator}). */
public final class EtcdRangeLog implements RangeLog {

    private final EtcdSegmentKeys keys;

    public EtcdRangeLog(final EtcdClient client) {
        this(new EtcdSegmentKeys(client));
    }

    EtcdRangeLog(final EtcdSegmentKeys keys) {
        this.keys = keys;
    }

    @Override
    public List<String> keys() {
        String prefix = keys.counters();
        try {
            return keys.client().range(prefix, 0, false, true).stream().map(each -> SegmentKeys.ofPathElement(each.key().substring(prefix.length()))).sorted()
                    .toList();
        } catch (final RuntimeException ex) {
            throw keys.failure("list " + prefix, ex);
        }
    }

    @Override
    public OptionalLong nextValue(final String key) {
        String counter = keys.counter(SegmentKeys.check(key));
        return keys.read(counter, "segment counter").map(each -> OptionalLong.of(keys.parseCounter(each))).orElse(OptionalLong.empty());
    }

    @Override
    public List<RangeLogEntry> recent(final String key, final int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("a range log listing needs a limit of at least 1, got " + limit);
        }
        String log = keys.log(SegmentKeys.check(key));
        List<EtcdKeyValue> newest;
        try {
            newest = keys.client().range(log, limit, true, false);
        } catch (final RuntimeException ex) {
            throw keys.failure("list " + log, ex);
        }
        List<RangeLogEntry> result = new ArrayList<>();
        for (EtcdKeyValue each : newest) {
            result.add(RangeLogJson.read(key, each.key(), each.value()));
        }
        result.sort(Comparator.comparingLong((RangeLogEntry each) -> each.range().first()));
        return result;
    }

    @Override
    public String describe() {
        return keys.describe();
    }

    @Override
    public String toString() {
        return "EtcdRangeLog[" + describe() + "]";
    }
}
