package org.snowkey.keygen.segment.runtime;

import java.util.Objects;
import java.util.TreeMap;

import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.keygen.segment.StartValues;

/**
 * Where a {@code SNOWKEY_SEGMENT} key generator takes its ranges and how it issues them: decided once ShardingSphere
 * has said its mode, without I/O.
 *
 * @param allocator the prepared allocator backend
 * @param sequence  how ranges are sized and fetched
 * @param starts    the first number of each key
 * @param segmentKey one key for every table, or a key per logic table
 */
public record SegmentPlan(PreparedAllocator allocator, SegmentSettings sequence, StartValues starts, SegmentKey segmentKey) {

    public SegmentPlan {
        Objects.requireNonNull(segmentKey, "segmentKey (SegmentKey.PER_TABLE for a key per logic table)");
    }

    /**
     * Key generators with equal plans share one allocator and one sequence per key in a JVM, so that the keys of a
     * table issued by this JVM strictly increase. Plans that differ in sizing or start values get allocators of their
     * own; their keys of one table are still unique (every range is allocated once), increasing only as a trend.
     *
     * <p>The shared key is part of it: a scope issues by the plan that opened it, so a key generator with
     * {@code segment-key} joining the scope of one without would otherwise get a sequence per table (its tables then
     * repeat each other's keys), and the other way round. Start values are listed sorted by key: {@code Map.copyOf}
     * iterates in an order that depends on insertion, and equal settings written in another order must be one scope.
     */
    public String scopeKey() {
        return allocator.scopeKey() + "|" + sequence + "|start=" + starts.defaultStart() + ",starts=" + new TreeMap<>(starts.perKey())
                + "|" + segmentKey;
    }
}
