package org.snowkey.segment.store;

import java.util.List;
import java.util.OptionalLong;

/** Read access to an allocator's store for operators: the keys, each key's next value and its most recent log entries. */
public interface RangeLog {

    /** The keys that have a counter in the store, sorted. */
    List<String> keys();

    /** The first number the store has not handed out yet for the key, or empty when the key has no counter. */
    OptionalLong nextValue(String key);

    /**
     * The {@code limit} most recently allocated ranges of the key, sorted by their first number.
     *
     * @throws IllegalStateException naming the row or node when an entry cannot be read (never skipped: a skipped
     *                               entry would hide an overlap)
     */
    List<RangeLogEntry> recent(String key, int limit);

    /** Where the log lives, for messages (no secrets). */
    String describe();
}
