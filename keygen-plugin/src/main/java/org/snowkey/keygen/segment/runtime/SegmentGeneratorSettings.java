package org.snowkey.keygen.segment.runtime;

import java.util.Map;
import java.util.TreeSet;

import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.keygen.segment.StartValues;

/**
 * Every setting of one {@code SNOWKEY_SEGMENT} key generator, parsed and validated once at start-up by
 * {@link SegmentPlanner#parse}; planning reads this value, never the props again.
 *
 * @param allocator the {@code segment-allocator} value in lower case, or null when the mode is to decide
 * @param segmentKey the {@code segment-key}: one sequence for every table, or one per logic table
 * @param sequence  how ranges are sized and fetched
 * @param starts    the first number of each key
 * @param backends  the parsed settings of the allocator backend that {@code segment-allocator} names, by name
 * @param props     the props as parsed, to name a prop in a later complaint
 */
public record SegmentGeneratorSettings(String allocator, SegmentKey segmentKey, SegmentSettings sequence, StartValues starts,
                                       Map<String, SegmentBackendSettings> backends, Map<Object, Object> props) {

    public SegmentGeneratorSettings {
        backends = Map.copyOf(backends);
        props = Map.copyOf(props);
    }

    /** The {@code segment-key}, folded, or null for one sequence per logic table: what start values are checked against. */
    public String sharedKey() {
        return segmentKey.shared();
    }

    /** Without the props' values: they may hold a password. */
    @Override
    public String toString() {
        return "SegmentGeneratorSettings[allocator=" + allocator + ", sharedKey=" + segmentKey.shared() + ", sequence=" + sequence + ", starts=" + starts
                + ", props set=" + new TreeSet<>(props.keySet().stream().map(String::valueOf).toList()) + "]";
    }
}
