package org.snowkey.keygen.shardingsphere;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

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
 * {@code segment-allocator: shared-memory}, for tests of the ShardingSphere glue: counters per key that outlive the
 * scopes opened on them, as a table or ZooKeeper node does, so a scope opened after another continues above its ranges.
 */
public final class SharedMemorySegmentAllocatorProvider implements SegmentAllocatorProvider {

    public static final String NAME = "shared-memory";

    /** Next value per key, across every scope of the JVM; tests use keys of their own. */
    private static final Map<String, AtomicLong> NEXT = new ConcurrentHashMap<>();

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
        return Shared.INSTANCE;
    }

    @Override
    public PreparedAllocator prepare(final SegmentBackendSettings settings, final Optional<ClusterRegistry> cluster) {
        return Shared.INSTANCE;
    }

    private enum Shared implements SegmentBackendSettings, PreparedAllocator {
        INSTANCE;

        @Override
        public String scopeKey() {
            return NAME;
        }

        @Override
        public OpenAllocator open(final String owner, final StartValues starts) {
            return new OpenAllocator() {

                @Override
                public NumberRange allocate(final String key, final long size) {
                    long first = NEXT.computeIfAbsent(key, each -> new AtomicLong(starts.startOf(each))).getAndAdd(size);
                    return new NumberRange(first, first + size - 1);
                }

                @Override
                public String describe() {
                    return "shared in-memory test allocator";
                }

                @Override
                public void close() {
                }
            };
        }
    }
}
