package org.snowkey.segment.store;

import org.snowkey.keygen.segment.NumberRange;

/**
 * One line of the range log: a range an allocator handed out, written in the same transaction (or ZooKeeper
 * multi-op) that advanced the key, so the log holds every range the store ever gave away, including those whose
 * answer never reached the caller.
 *
 * @param key               the sequence key
 * @param range             the range handed out
 * @param owner             who asked for it (the allocator's owner, e.g. host and process id)
 * @param allocatedAtMillis when, in epoch milliseconds of the allocating process
 */
public record RangeLogEntry(String key, NumberRange range, String owner, long allocatedAtMillis) {

    @Override
    public String toString() {
        return key + " " + range + " owner=" + owner + " at=" + java.time.Instant.ofEpochMilli(allocatedAtMillis);
    }
}
