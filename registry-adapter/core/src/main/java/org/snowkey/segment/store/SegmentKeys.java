package org.snowkey.segment.store;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.PropertyNames;

/**
 * What a sequence key may be, the same for every store: the JDBC key column is {@code VARCHAR(191)} (the longest
 * key a MySQL utf8mb4 primary key holds on every version), and a ZooKeeper node name must not be empty. Owners name
 * who took a range, in the log.
 */
public final class SegmentKeys {

    public static final int MAX_LENGTH = 191;

    public static final int MAX_OWNER_LENGTH = 255;

    /** The node of the sequence keys' counters under {@code <namespace>/snowkey/} on the tree stores (ZooKeeper, etcd). */
    public static final String COUNTERS_NODE = "segments";

    /** The node of the sequence keys' range logs under {@code <namespace>/snowkey/} on the tree stores. */
    public static final String LOGS_NODE = "segment-log";

    private SegmentKeys() {
    }

    /** @throws IllegalArgumentException naming the key and what is allowed */
    public static String check(final String key) {
        if (key == null || key.isBlank() || key.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("segment key '" + key + "' is not allowed: a key is non-blank text of at most " + MAX_LENGTH + " characters");
        }
        return key;
    }

    /**
     * Refuses a {@code lease-pool} named like a node of segment mode. On the tree stores the worker-id leases of a pool
     * live at {@code <namespace>/snowkey/<pool>/workers/}, beside the segment counters and logs: a pool named
     * {@code segments} would put lease records among the counters (a sequence key {@code workers} would read one as its
     * counter), {@code segment-log} among the logs. Both fail closed, but block the other generator.
     */
    public static String checkLeasePoolBesideSegments(final String pool) {
        if (COUNTERS_NODE.equals(pool) || LOGS_NODE.equals(pool)) {
            throw new InvalidSettingException(PropertyNames.LEASE_POOL, pool, "a pool name other than '" + COUNTERS_NODE + "' and '" + LOGS_NODE
                    + "', which hold SNOWKEY_SEGMENT's counters and range logs beside the lease pools in the same namespace");
        }
        return pool;
    }

    /** The owner written into each log entry; the JDBC owner column is {@code VARCHAR(255)}. */
    public static String checkOwner(final String owner) {
        if (owner == null || owner.isBlank() || owner.length() > MAX_OWNER_LENGTH) {
            throw new IllegalArgumentException("segment range owner '" + owner + "' is not allowed: an owner is non-blank text of at most " + MAX_OWNER_LENGTH + " characters");
        }
        return owner;
    }

    /**
     * The key as one path element of a registry (a ZooKeeper node name, a segment of an etcd key): percent-encoded
     * (UTF-8) except letters, digits and {@code - _ .}, so {@code ds_0.t_order} stays readable while {@code /},
     * {@code %} and non-ASCII characters cannot reach the path; a key of dots only is encoded whole (ZooKeeper refuses
     * the names {@code .} and {@code ..}).
     */
    public static String pathElement(final String key) {
        boolean dotsOnly = key.chars().allMatch(each -> each == '.');
        StringBuilder result = new StringBuilder();
        for (byte each : key.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (each & 0xFF);
            boolean plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' && !dotsOnly;
            if (plain) {
                result.append(c);
            } else {
                result.append('%').append(Character.toUpperCase(Character.forDigit((c >> 4) & 0xF, 16))).append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            }
        }
        return result.toString();
    }

    /** The key of a path element; encoded elements hold no '+', so the form decoder's one liberty (a '+' as a space) never applies. */
    public static String ofPathElement(final String element) {
        return URLDecoder.decode(element, StandardCharsets.UTF_8);
    }

    /** @throws IllegalArgumentException naming the size when it is below 1 */
    public static long checkSize(final String key, final long size) {
        if (size < 1) {
            throw new IllegalArgumentException("a range of segment key '" + key + "' needs a size of at least 1, got " + size);
        }
        return size;
    }
}
