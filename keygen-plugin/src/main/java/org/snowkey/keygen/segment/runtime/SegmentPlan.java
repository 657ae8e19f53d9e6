package org.snowkey.keygen.segment.runtime;

import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.keygen.segment.StartValues;

/**
 * Where a {@code SNOWKEY_SEGMENT} key generator takes its ranges and how it issues them: decided once ShardingSphere
 * has said its mode, without I/O.
 *
 * @param allocator the prepared allocator backend
 * @param sequence  how ranges are sized and fetched
 * @param starts    the first number of each key
 * @param sharedKey the one key of every table, or null for a key per logic table
 */
public record SegmentPlan(PreparedAllocator allocator, SegmentSettings sequence, StartValues starts, String sharedKey) {

    /**
     * Key generators with equal plans share one allocator and one sequence per key in a JVM, so that the keys of a
     * table issued by this JVM strictly increase. Plans that differ in sizing or start values get allocators of their
     * own; their keys of one table are still unique (every range is allocated once), increasing only as a trend.
     */
    public String scopeKey() {
        return allocator.scopeKey() + "|" + sequence + "|" + starts;
    }
}
