package org.snowkey.keygen.segment.runtime;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.keygen.segment.StartValues;

/**
 * An allocator backend for planner and runtime tests: ranges from counters in this JVM ({@code test-store} names the
 * store, so that two "stores" are two scopes), and a record of every allocator opened and closed. It leases nothing
 * across processes, which is why it exists only in tests.
 */
public final class TestAllocatorProvider implements SegmentAllocatorProvider {

    public static final String NAME = "test";

    public static final String STORE = "test-store";

    /** Every allocator opened, in order; shared so tests can see what the runtime did. */
    public static final List<Opened> OPENED = new CopyOnWriteArrayList<>();

    private static final Map<String, AtomicLong> COUNTERS = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<String> propertyNames() {
        return Set.of(STORE);
    }

    @Override
    public SegmentBackendSettings parse(final PropertyReader reader, final SegmentSettings sequence) {
        String store = reader.text(STORE);
        if (store != null && store.contains("|")) {
            throw new InvalidSettingException(STORE, store, "a name without '|'");
        }
        return new Parsed(store);
    }

    @Override
    public PreparedAllocator prepare(final SegmentBackendSettings settings, final Optional<ClusterRegistry> cluster) {
        String store = ((Parsed) settings).store();
        if (store == null) {
            store = cluster.map(each -> "cluster:" + each.namespace()).orElseThrow(() -> new InvalidSettingException(STORE, null, "required outside Cluster mode"));
        }
        String chosen = store;
        return new PreparedAllocator() {

            @Override
            public String scopeKey() {
                return NAME + "|" + chosen;
            }

            @Override
            public OpenAllocator open(final String owner, final StartValues starts) {
                Opened opened = new Opened(chosen, owner, starts);
                OPENED.add(opened);
                return opened;
            }
        };
    }

    private record Parsed(String store) implements SegmentBackendSettings {
    }

    /** An open allocator over the store's counters. */
    public static final class Opened implements OpenAllocator {

        public final String store;

        public final String owner;

        public final StartValues starts;

        public volatile boolean closed;

        Opened(final String store, final String owner, final StartValues starts) {
            this.store = store;
            this.owner = owner;
            this.starts = starts;
        }

        @Override
        public NumberRange allocate(final String key, final long size) {
            AtomicLong counter = COUNTERS.computeIfAbsent(store + "|" + key, each -> new AtomicLong());
            long start = starts.startOf(key);
            long end;
            while (true) {
                long current = counter.get();
                long first = Math.max(current + 1, start);
                end = first + size - 1;
                if (counter.compareAndSet(current, end)) {
                    return new NumberRange(first, end);
                }
            }
        }

        @Override
        public String describe() {
            return "test store " + store;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
