package org.snowkey.lease;

import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseBackendSettings;
import org.snowkey.keygen.lease.LeaseRequest;
import org.snowkey.keygen.lease.PreparedLease;
import org.snowkey.keygen.lease.WorkerLease;
import org.snowkey.keygen.lease.WorkerLeaseProvider;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.store.StoreKind;
import org.snowkey.store.StoreLibraries;

/**
 * What every lease store's provider does the same way: check that the store's third-party libraries are present,
 * parse the store's own props once at start-up, complete them from the mode without parsing again, and open a
 * {@link LeasedWorkerLease} on the store with the shared lease props as the plugin parsed them ({@link LeaseTerms},
 * handed over in the {@link LeaseRequest}). A store says only how its props are parsed and completed, what makes two
 * leases the same scope, and how its {@link LeaseStore} is opened.
 *
 * @param <C> the store's props as parsed, before the mode is known
 * @param <S> the store's settings, completed from the mode
 */
public abstract class StoreLeaseProvider<C, S> implements WorkerLeaseProvider {

    private final StoreKind store;

    /** @param store the store; its name is the {@code lease-registry} value */
    protected StoreLeaseProvider(final StoreKind store) {
        this.store = store;
    }

    @Override
    public final String registry() {
        return store.name();
    }

    @Override
    public final Set<String> propertyNames() {
        return store.propertyNames();
    }

    /** Parses the store's props once, at start-up (docs/design.md, "Settings"); a missing library fails here already. */
    @Override
    public final LeaseBackendSettings parse(final Properties props, final LeaseTerms terms) {
        requireLibraries();
        return new Parsed<>(this, parseStore(new PropertyReader(props), terms));
    }

    @Override
    public final PreparedLease prepare(final LeaseRequest request) {
        requireLibraries();
        Parsed<C> parsed = parsedByThis(request);
        return new Prepared<>(this, request.terms(), complete(parsed.store(), request.clusterRegistry(), request.terms()), request.layout());
    }

    @SuppressWarnings("unchecked")
    private Parsed<C> parsedByThis(final LeaseRequest request) {
        Parsed<?> parsed = request.backend(Parsed.class);
        if (parsed.provider() != this) {
            throw new IllegalArgumentException("lease settings parsed by " + parsed.provider().registry() + " handed to " + registry());
        }
        return (Parsed<C>) parsed;
    }

    /** Parses and validates the store's own props, before the mode is known; no I/O. */
    protected abstract C parseStore(PropertyReader reader, LeaseTerms terms);

    /** Completes the parsed props from ShardingSphere's Cluster mode, if the store takes anything from it; no I/O, no props read. */
    protected abstract S complete(C parsed, Optional<ClusterRegistry> cluster, LeaseTerms terms);

    /** What, besides the registry and the pool, makes two leases one scope (see {@link PreparedLease#scopeKey()}); never a secret. */
    protected abstract String scopeOf(S store);

    /** Opens the store; it may build a client but needs no connection yet. */
    protected abstract LeaseStore openStore(S store);

    /**
     * Names the missing artifact when one of the store's libraries is absent (see {@link StoreLibraries}).
     *
     * @throws IllegalStateException naming the first missing library's artifact
     */
    public final void requireLibraries() {
        store.requireLibraries("lease-registry");
    }

    /** The store's props as {@link #parse} made them, with the provider that made them. */
    private record Parsed<C>(StoreLeaseProvider<C, ?> provider, C store) implements LeaseBackendSettings {

        /** The settings may hold credentials: the provider only. */
        @Override
        public String toString() {
            return provider.getClass().getSimpleName() + ".Parsed";
        }
    }

    /** A validated lease, not yet connected. */
    private record Prepared<S>(StoreLeaseProvider<?, S> provider, LeaseTerms terms, S store, IdLayout layout) implements PreparedLease {

        @Override
        public String scopeKey() {
            return provider.registry() + "|" + provider.scopeOf(store) + "|" + terms.pool();
        }

        @Override
        public WorkerLease open() {
            return new LeasedWorkerLease(provider.openStore(store), terms, layout, LeaseRuntimeOptions.defaults());
        }

        /** The scope only: the store settings may hold credentials. */
        @Override
        public String toString() {
            return provider.getClass().getSimpleName() + ".Prepared[" + scopeKey() + "]";
        }
    }
}
