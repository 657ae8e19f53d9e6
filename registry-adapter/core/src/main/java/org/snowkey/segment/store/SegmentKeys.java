package org.snowkey.segment.store;

/**
 * What a sequence key may be, the same for every store: the JDBC key column is {@code VARCHAR(191)} (the longest
 * key a MySQL utf8mb4 primary key holds on every version), and a ZooKeeper node name must not be empty. Owners name
 * who took a range, in the log.
 */
public final class SegmentKeys {

    public static final int MAX_LENGTH = 191;

    public static final int MAX_OWNER_LENGTH = 255;

    private SegmentKeys() {
    }

    /** @throws IllegalArgumentException naming the key and what is allowed */
    public static String check(final String key) {
        if (key == null || key.isBlank() || key.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("segment key '" + key + "' is not allowed: a key is non-blank text of at most " + MAX_LENGTH + " characters");
        }
        return key;
    }

    /** The owner written into each log entry; the JDBC owner column is {@code VARCHAR(255)}. */
    public static String checkOwner(final String owner) {
        if (owner == null || owner.isBlank() || owner.length() > MAX_OWNER_LENGTH) {
            throw new IllegalArgumentException("segment range owner '" + owner + "' is not allowed: an owner is non-blank text of at most " + MAX_OWNER_LENGTH + " characters");
        }
        return owner;
    }

    /** @throws IllegalArgumentException naming the size when it is below 1 */
    public static long checkSize(final String key, final long size) {
        if (size < 1) {
            throw new IllegalArgumentException("a range of segment key '" + key + "' needs a size of at least 1, got " + size);
        }
        return size;
    }
}
