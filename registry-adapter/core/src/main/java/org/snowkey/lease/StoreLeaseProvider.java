package org.snowkey.lease;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseRequest;
import org.snowkey.keygen.lease.PreparedLease;
import org.snowkey.keygen.lease.WorkerLease;
import org.snowkey.keygen.lease.WorkerLeaseProvider;
import org.snowkey.lease.admin.StoreOperations;
import org.snowkey.lease.store.LeaseStore;

/**
 * What every lease store's provider does the same way: check that the store's third-party libraries are present,
 * parse the lease props ({@link LeaseSettings}) and the store's own, and open a {@link LeasedWorkerLease} on the
 * store. A store says only how its props are parsed, what makes two leases the same scope, and how its
 * {@link LeaseStore} is opened.
 *
 * @param <S> the store's validated settings
 */
public abstract class StoreLeaseProvider<S> implements WorkerLeaseProvider {

    private final String registry;

    private final String storeArtifact;

    private final Map<String, String> requiredClasses;

    /**
     * @param registry the {@code lease-registry} value
     * @param storeArtifact the SnowKey artifact of the store, for the message when a library it needs is missing
     * @param classThenArtifact pairs: a class of a third-party library the store needs, then the library's Maven
     *        coordinates; checked in this order
     */
    protected StoreLeaseProvider(final String registry, final String storeArtifact, final String... classThenArtifact) {
        this.registry = registry;
        this.storeArtifact = storeArtifact;
        Map<String, String> required = new LinkedHashMap<>();
        for (int i = 0; i + 1 < classThenArtifact.length; i += 2) {
            required.put(classThenArtifact[i], classThenArtifact[i + 1]);
        }
        this.requiredClasses = Collections.unmodifiableMap(required);
    }

    @Override
    public final String registry() {
        return registry;
    }

    @Override
    public final PreparedLease prepare(final LeaseRequest request) {
        requireLibraries();
        PropertyReader reader = new PropertyReader(request.props());
        LeaseSettings lease = LeaseSettings.parse(reader);
        return new Prepared<>(this, lease, parseStore(reader, request, lease), request.layout());
    }

    /** Parses and validates the store's own props; no I/O. */
    protected abstract S parseStore(PropertyReader reader, LeaseRequest request, LeaseSettings lease);

    /** What, besides the registry and the pool, makes two leases one scope (see {@link PreparedLease#scopeKey()}); never a secret. */
    protected abstract String scopeOf(S store);

    /** Opens the store; it may build a client but needs no connection yet. */
    protected abstract LeaseStore openStore(S store);

    /** How the operations tool ({@link org.snowkey.lease.admin.LeaseCli}) reaches this store. */
    public abstract StoreOperations operations();

    /**
     * A store jar copied without its libraries (a ShardingSphere-Proxy {@code ext-lib/} without them in {@code lib/},
     * a dependency excluded) would otherwise fail on the first connection with a {@link NoClassDefFoundError} naming
     * a class; start-up (and the operations tool) names the missing artifact instead.
     *
     * @throws IllegalStateException naming the first missing library's artifact
     */
    public final void requireLibraries() {
        ClassLoader loader = getClass().getClassLoader();
        requiredClasses.forEach((className, artifact) -> {
            try {
                Class.forName(className, false, loader);
            } catch (final ClassNotFoundException | LinkageError ex) {
                throw new IllegalStateException("SnowKey lease-registry: " + registry + " needs " + artifact + " on the class path, and it is missing (class "
                        + className + " not found). " + storeArtifact + " declares it as a dependency: add " + artifact
                        + " (on ShardingSphere-Proxy, to ext-lib/ unless the Proxy's lib/ has it)", ex);
            }
        });
    }

    /** A validated lease, not yet connected. */
    private record Prepared<S>(StoreLeaseProvider<S> provider, LeaseSettings lease, S store, IdLayout layout) implements PreparedLease {

        @Override
        public String scopeKey() {
            return provider.registry + "|" + provider.scopeOf(store) + "|" + lease.pool();
        }

        @Override
        public WorkerLease open() {
            return new LeasedWorkerLease(provider.openStore(store), lease, layout, LeaseRuntimeOptions.defaults());
        }

        /** The scope only: the store settings may hold credentials. */
        @Override
        public String toString() {
            return provider.getClass().getSimpleName() + ".Prepared[" + scopeKey() + "]";
        }
    }
}
