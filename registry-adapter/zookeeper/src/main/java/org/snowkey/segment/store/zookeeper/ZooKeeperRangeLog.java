package org.snowkey.segment.store.zookeeper;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.snowkey.segment.store.RangeLog;
import org.snowkey.segment.store.RangeLogEntry;
import org.snowkey.segment.store.RangeLogJson;
import org.snowkey.segment.store.SegmentKeys;

/** The segment nodes read for operators: keys, counters and the most recent log entries (see {@link ZooKeeperRangeAllocator}). */
public final class ZooKeeperRangeLog implements RangeLog {

    private final ZooKeeperSegmentNodes nodes;

    public ZooKeeperRangeLog(final CuratorFramework client, final String namespace) {
        this(new ZooKeeperSegmentNodes(client, namespace));
    }

    ZooKeeperRangeLog(final ZooKeeperSegmentNodes nodes) {
        this.nodes = nodes;
    }

    @Override
    public List<String> keys() {
        String counters = nodes.paths().counters();
        try {
            return nodes.client().getChildren().forPath(counters).stream().map(ZooKeeperSegmentPaths::decode).sorted().toList();
        } catch (final KeeperException.NoNodeException ex) {
            return List.of();
        } catch (final Exception ex) {
            throw nodes.failure("list " + counters, ex);
        }
    }

    @Override
    public OptionalLong nextValue(final String key) {
        String counter = nodes.paths().counter(SegmentKeys.check(key));
        byte[] data;
        try {
            data = nodes.client().getData().forPath(counter);
        } catch (final KeeperException.NoNodeException ex) {
            return OptionalLong.empty();
        } catch (final Exception ex) {
            throw nodes.failure("read " + counter, ex);
        }
        return OptionalLong.of(nodes.parseCounter(counter, data));
    }

    @Override
    public List<RangeLogEntry> recent(final String key, final int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("a range log listing needs a limit of at least 1, got " + limit);
        }
        String log = nodes.paths().log(SegmentKeys.check(key));
        List<String> names;
        try {
            names = new ArrayList<>(nodes.client().getChildren().forPath(log));
        } catch (final KeeperException.NoNodeException ex) {
            return List.of();
        } catch (final Exception ex) {
            throw nodes.failure("list " + log, ex);
        }
        // Entries in allocation order, by their sequence read unsigned (past 2^31 - 1 ZooKeeper names them "r--2147483648"
        // on, which sort by name before the oldest: the newest logged range, the floor of a counter re-created by hand,
        // would have been a stale one). Foreign names come last, so that they are read and reported, never skipped.
        List<String> entries = ZooKeeperSegmentPaths.entriesInOrder(names);
        List<String> foreign = names.stream().filter(each -> ZooKeeperSegmentPaths.sequenceOf(each) < 0).sorted().toList();
        names = new ArrayList<>(entries);
        names.addAll(foreign);
        List<RangeLogEntry> result = new ArrayList<>();
        for (String each : names.subList(Math.max(0, names.size() - limit), names.size())) {
            String path = log + "/" + each;
            byte[] data;
            try {
                data = nodes.client().getData().forPath(path);
            } catch (final KeeperException.NoNodeException ex) {
                // Removed by an operator pruning the log since the listing.
                continue;
            } catch (final Exception ex) {
                throw nodes.failure("read " + path, ex);
            }
            result.add(RangeLogJson.read(key, path, data));
        }
        result.sort(Comparator.comparingLong((RangeLogEntry each) -> each.range().first()));
        return result;
    }

    @Override
    public String describe() {
        return nodes.describe();
    }

    @Override
    public String toString() {
        return "ZooKeeperRangeLog[" + describe() + "]";
    }
}
