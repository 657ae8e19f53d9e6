package org.snowkey.benchmarks;

import java.util.Optional;
import java.util.Set;

import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.keygen.segment.StartValues;
import org.snowkey.keygen.segment.runtime.OpenAllocator;
import org.snowkey.keygen.segment.runtime.PreparedAllocator;
import org.snowkey.keygen.segment.runtime.SegmentAllocatorProvider;
import org.snowkey.keygen.segment.runtime.SegmentBackendSettings;

/**
 * {@code segment-allocator: benchmark-memory}, for the benchmarks only (registered by this module's services file,
 * never shipped): the in-process {@link CountingRangeAllocator} the core contender uses, so that the SPI-versus-core
 * comparison measures the ShardingSphere glue and nothing else. A JDBC allocator (H2 in memory) would add a
 * transaction per range, which at 100,000 keys a range is noise for the single-key path but makes runs depend on H2;
 * the comparison is about what the glue costs over the core (the SPI within 2x of {@code SegmentSequence}), not the
 * allocator.
 */
public final class BenchmarkSegmentAllocatorProvider implements SegmentAllocatorProvider {

    public static final String NAME = "benchmark-memory";

    /** The allocator of the last scope opened, to count its round trips; one scope at a time in a benchmark fork. */
    private static volatile CountingRangeAllocator lastOpened;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<String> propertyNames() {
        return Set.of();
    }

    @Override
    public SegmentBackendSettings parse(final PropertyReader reader, final SegmentSettings sequence) {
        return Memory.INSTANCE;
    }

    @Override
    public PreparedAllocator prepare(final SegmentBackendSettings settings, final Optional<ClusterRegistry> cluster) {
        return Memory.INSTANCE;
    }

    /** Round trips of the allocator opened last, or -1 when none was opened. */
    static long lastOpenedCalls() {
        CountingRangeAllocator allocator = lastOpened;
        return allocator == null ? -1 : allocator.calls();
    }

    private enum Memory implements SegmentBackendSettings, PreparedAllocator {
        INSTANCE;

        @Override
        public String scopeKey() {
            return NAME;
        }

        @Override
        public OpenAllocator open(final String owner, final StartValues starts) {
            CountingRangeAllocator counting = new CountingRangeAllocator();
            lastOpened = counting;
            return new OpenAllocator() {

                @Override
                public NumberRange allocate(final String key, final long size) {
                    return counting.allocate(key, size);
                }

                @Override
                public String describe() {
                    return counting.describe();
                }

                @Override
                public void close() {
                }
            };
        }
    }
}
