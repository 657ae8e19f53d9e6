package org.snowkey.segment.store.zookeeper;

import java.util.Comparator;
import java.util.List;

import org.snowkey.segment.store.SegmentKeys;

/**
 * The node layout of segment mode, beside the worker-id leases under {@code /<namespace>/snowkey}:
 * <pre>
 * /&lt;namespace&gt;/snowkey/segments/&lt;key&gt;              next value (decimal text), advanced by compare-and-set
 * /&lt;namespace&gt;/snowkey/segment-log/&lt;key&gt;/r-&lt;seq&gt;   one persistent-sequential node per range, JSON
 * </pre>
 * Keys are any text, node names are not: a key is percent-encoded (UTF-8) except letters, digits, {@code - _ .}, so
 * {@code ds_0.t_order} stays readable while {@code /}, {@code %} and non-ASCII characters cannot reach the path, and a
 * key of dots only is encoded whole (ZooKeeper refuses the names {@code .} and {@code ..}).
 */
final class ZooKeeperSegmentPaths {

    static final String ENTRY_PREFIX = "r-";

    private final String root;

    ZooKeeperSegmentPaths(final String namespace) {
        if (namespace == null || namespace.isEmpty() || namespace.contains("/") || namespace.chars().allMatch(each -> each == '.')) {
            throw new IllegalArgumentException("segment ZooKeeper namespace '" + namespace + "' is not allowed: one node name, not empty, without '/', not '.' or '..'");
        }
        this.root = "/" + namespace + "/snowkey";
    }

    /** SnowKey's node in the namespace, shared with the worker-id leases. */
    String root() {
        return root;
    }

    String counters() {
        return root + "/" + SegmentKeys.COUNTERS_NODE;
    }

    /** The parent of every key's log node. */
    String logs() {
        return root + "/" + SegmentKeys.LOGS_NODE;
    }

    String counter(final String key) {
        return counters() + "/" + encode(key);
    }

    String log(final String key) {
        return logs() + "/" + encode(key);
    }

    /** The path given to a persistent-sequential create; ZooKeeper appends the sequence number. */
    String entryPrefix(final String key) {
        return log(key) + "/" + ENTRY_PREFIX;
    }

    static String encode(final String key) {
        return SegmentKeys.pathElement(key);
    }

    static String decode(final String name) {
        return SegmentKeys.ofPathElement(name);
    }

    /**
     * The sequence of a log entry's name, read as ZooKeeper's unsigned 32-bit count, or -1 for a name that is no entry.
     * ZooKeeper prints its signed int sequence with {@code %010d}: past 2,147,483,647 the names read "r--2147483648"
     * on, which sort BEFORE every older entry by name (creates and deletes both advance it, about two per range with
     * pruning on). Read unsigned, they stay the newest.
     */
    static long sequenceOf(final String name) {
        if (!name.startsWith(ENTRY_PREFIX)) {
            return -1L;
        }
        String digits = name.substring(ENTRY_PREFIX.length());
        if (!digits.matches("-?[0-9]{9,10}") || digits.length() < 10) {
            return -1L;
        }
        try {
            return Integer.toUnsignedLong(Integer.parseInt(digits));
        } catch (final NumberFormatException ex) {
            return -1L;
        }
    }

    /**
     * The log entries among a log node's child names, oldest first by sequence; foreign names (not {@code r-} and a
     * sequence) are left out: pruning must never take one for the oldest entry (nor stall on one it cannot delete).
     */
    static List<String> entriesInOrder(final List<String> names) {
        return names.stream().filter(each -> sequenceOf(each) >= 0).sorted(Comparator.comparingLong(ZooKeeperSegmentPaths::sequenceOf)).toList();
    }
}
