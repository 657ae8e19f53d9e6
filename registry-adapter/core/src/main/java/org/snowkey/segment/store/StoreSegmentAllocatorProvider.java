package org.snowkey.segment.store;

import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.segment.RangeAllocator;
import org.snowkey.keygen.segment.SegmentPropertyNames;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.keygen.segment.runtime.OpenAllocator;
import org.snowkey.keygen.segment.runtime.PreparedAllocator;
import org.snowkey.keygen.segment.runtime.SegmentAllocatorProvider;
import org.snowkey.keygen.segment.runtime.SegmentBackendSettings;
import org.snowkey.store.StoreKind;

/**
 * What every store's segment allocator provider does the same way: name the store's missing artifact at start-up, as
 * the lease backend does, before its props are parsed; take back only the settings it parsed itself; and close the
 * client or pool it made when the allocator over it fails to open. A store says how its props are parsed and how the
 * parsed settings are prepared.
 *
 * @param <P> the store's parsed settings
 */
public abstract class StoreSegmentAllocatorProvider<P extends SegmentBackendSettings> implements SegmentAllocatorProvider {

    private final StoreKind store;

    private final String storeTitle;

    private final Class<P> parsedType;

    /**
     * @param store the store; its name is the {@code segment-allocator} value
     * @param storeTitle the store as messages name it (etcd, ZooKeeper, JDBC)
     * @param parsedType the class of the settings {@link #parseStore} returns
     */
    protected StoreSegmentAllocatorProvider(final StoreKind store, final String storeTitle, final Class<P> parsedType) {
        this.store = store;
        this.storeTitle = storeTitle;
        this.parsedType = parsedType;
    }

    @Override
    public final String name() {
        return store.name();
    }

    @Override
    public final Set<String> propertyNames() {
        return store.propertyNames();
    }

    @Override
    public final SegmentBackendSettings parse(final PropertyReader reader, final SegmentSettings sequence) {
        store.requireLibraries(SegmentPropertyNames.ALLOCATOR);
        return parseStore(reader, sequence);
    }

    @Override
    public final PreparedAllocator prepare(final SegmentBackendSettings settings, final Optional<ClusterRegistry> cluster) {
        if (!parsedType.isInstance(settings)) {
            throw new IllegalArgumentException("segment settings " + settings + " were not parsed by the " + storeTitle + " allocator");
        }
        return prepareStore(parsedType.cast(settings), cluster);
    }

    /** Parses and validates the store's props, before the mode is known; connects to nothing. */
    protected abstract P parseStore(PropertyReader reader, SegmentSettings sequence);

    /** Completes the parsed settings from ShardingSphere's Cluster mode, where the store takes anything from it; connects to nothing. */
    protected abstract PreparedAllocator prepareStore(P parsed, Optional<ClusterRegistry> cluster);

    /**
     * An allocator over a client or pool just made, which {@code close} releases with the allocator. Should the
     * allocator fail to open, the client or pool is closed at once: nobody else holds it yet, and left open its threads
     * would outlive the failed open.
     */
    protected static <R> OpenAllocator openOn(final R clientOrPool, final Runnable close, final Function<R, RangeAllocator> allocatorOn) {
        try {
            return OpenAllocator.of(allocatorOn.apply(clientOrPool), close);
        } catch (final RuntimeException | Error ex) {
            try {
                close.run();
            } catch (final RuntimeException | Error closeFailure) {
                // The open's failure is what the user must see; the close's rides along with it.
                ex.addSuppressed(closeFailure);
            }
            throw ex;
        }
    }
}
