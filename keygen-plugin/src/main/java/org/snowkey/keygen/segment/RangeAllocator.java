package org.snowkey.keygen.segment;

/**
 * Hands out ranges of keys from a central store (a database table, a ZooKeeper node).
 *
 * <p>The contract every allocator keeps (docs/design.md, "Segment mode"):
 * <ul>
 *   <li>an allocation is one atomic step on the store: a range once handed out is never handed out again, whatever
 *       crashes, retries, timeouts or concurrent allocators do;</li>
 *   <li>an allocation whose answer was lost (applied, then the call failed) leaves a gap, never an overlap: the
 *       caller retries with a fresh allocation and the lost range is simply never used;</li>
 *   <li>ranges of one key only grow: a range allocated after another one lies above it.</li>
 * </ul>
 * Implementations are thread-safe; a call may block for I/O and is never made while a caller of
 * {@link SegmentSequence#nextId()} waits on a lock it needs.
 */
public interface RangeAllocator {

    /**
     * Allocates the next range of {@code size} keys of {@code key}.
     *
     * @param key  the sequence's key (by default the logic table, {@code <database>.<table>})
     * @param size how many keys the range should hold; the allocator may return fewer only where the key space ends
     * @return the range, now owned by the caller alone
     * @throws RangeUnavailableException when no range can be had now; the message names the store and the cause
     */
    NumberRange allocate(String key, long size);

    /** Where ranges come from, for messages and health (no secrets). */
    String describe();
}
