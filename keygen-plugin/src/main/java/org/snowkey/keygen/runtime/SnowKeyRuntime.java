package org.snowkey.keygen.runtime;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.GeneratorSettings;
import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.lease.LeaseRequest;
import org.snowkey.keygen.lease.LeaseRequest.ClusterRegistry;
import org.snowkey.keygen.lease.PreparedLease;
import org.snowkey.keygen.lease.StaticHighWaterMarks;
import org.snowkey.keygen.lease.StaticWorkerLease;
import org.snowkey.keygen.lease.WorkerLeaseProvider;

/**
 * The JVM's SnowKey generators, one per scope. Every algorithm instance (and the Spring bean) with the same
 * scope shares one lease and one set of sequence streams, so two instances never issue on the same worker id
 * independently. Leases are released from a shutdown hook, because ShardingSphere never closes algorithms.
 */
public final class SnowKeyRuntime {

    private static final Logger LOG = LoggerFactory.getLogger(SnowKeyRuntime.class);

    /**
     * The one runtime of the JVM. Static because ShardingSphere creates key generate algorithms through its SPI with
     * a no-argument constructor and hands them nothing to share: algorithms of every context, and the Spring bean,
     * find the scopes they share here. Everything else is instance state, so tests can build their own runtime.
     */
    private static final SnowKeyRuntime INSTANCE = new SnowKeyRuntime(loadProviders(), WallClock.system(), StaticHighWaterMarks.jvm(),
            hook -> Runtime.getRuntime().addShutdownHook(new Thread(hook, "snowkey-release-leases")), Scope.Waiting.PARK);

    /**
     * The current generation of each scope key; a generation removes itself once its lease is released. Guarded by
     * itself, held only to look up or update the map (joins and leaves, never per id), never while a lease opens or
     * closes: a slow registry in one scope does not hold up the others.
     */
    private final Map<String, Scope> scopes = new HashMap<>();

    private final Map<String, WorkerLeaseProvider> providers;

    private final WallClock clock;

    /** Where static leases record and read their high-water marks. */
    private final StaticHighWaterMarks staticMarks;

    /** Registers the shutdown hook that releases the leases (once, when the first generator is created). */
    private final Consumer<Runnable> shutdownHooks;

    /** How joiners and closers wait for a scope's open or release in another thread (see {@link Scope.Waiting}). */
    private final Scope.Waiting waiting;

    private final AtomicBoolean shutdownHookInstalled = new AtomicBoolean();

    /** Props that apply where a key generator sets none (the Spring Boot integration sets them). */
    private volatile Properties defaults = new Properties();

    SnowKeyRuntime(final Map<String, WorkerLeaseProvider> providers, final WallClock clock, final StaticHighWaterMarks staticMarks,
                   final Consumer<Runnable> shutdownHooks, final Scope.Waiting waiting) {
        this.providers = Map.copyOf(providers);
        this.clock = clock;
        this.staticMarks = staticMarks;
        this.shutdownHooks = shutdownHooks;
        this.waiting = waiting;
    }

    private static Map<String, WorkerLeaseProvider> loadProviders() {
        Map<String, WorkerLeaseProvider> found = new TreeMap<>();
        for (WorkerLeaseProvider each : ServiceLoader.load(WorkerLeaseProvider.class, SnowKeyRuntime.class.getClassLoader())) {
            found.put(each.registry().toLowerCase(Locale.ROOT), each);
        }
        return found;
    }

    public static SnowKeyRuntime get() {
        return INSTANCE;
    }

    /**
     * Validates props and decides the scope, without any I/O.
     *
     * @param props the key generator props
     * @param clusterRegistry the ShardingSphere Cluster mode repository, when there is one
     * @throws InvalidSettingException naming the prop and the value
     */
    public ScopePlan plan(final Properties props, final Optional<ClusterRegistry> clusterRegistry) {
        return plan(props, clusterRegistry, true);
    }

    /**
     * Validates props before ShardingSphere has told the mode (an algorithm's {@code init()}): props that Cluster
     * mode may supply later, such as the ZooKeeper servers, may be missing. The plan is for validation only.
     */
    public ScopePlan planBeforeMode(final Properties props) {
        return plan(props, Optional.empty(), false);
    }

    private ScopePlan plan(final Properties props, final Optional<ClusterRegistry> clusterRegistry, final boolean modeResolved) {
        Properties copy = new Properties();
        copy.putAll(defaults);
        if (props != null) {
            copy.putAll(props);
        }
        Set<String> backendProps = new HashSet<>();
        providers.values().forEach(each -> backendProps.addAll(each.propertyNames()));
        GeneratorSettings settings = GeneratorSettings.parse(copy, backendProps, System.currentTimeMillis());
        PropertyReader reader = new PropertyReader(copy);
        String registry = reader.text(PropertyNames.LEASE_REGISTRY);
        if (registry != null) {
            if (settings.workerId() != null) {
                throw new InvalidSettingException(PropertyNames.WORKER_ID, settings.workerId(),
                        "a static worker id and " + PropertyNames.LEASE_REGISTRY + " = '" + registry + "' exclude each other; remove one");
            }
            return leased(settings, provider(registry), new LeaseRequest(copy, settings.layout(), clusterRegistry, modeResolved));
        }
        if (settings.workerId() != null) {
            return staticPlan(settings, settings.workerId(), false);
        }
        if (clusterRegistry.isPresent()) {
            ClusterRegistry cluster = clusterRegistry.get();
            WorkerLeaseProvider provider = providers.get(cluster.type().toLowerCase(Locale.ROOT));
            if (provider == null) {
                throw new InvalidSettingException(PropertyNames.LEASE_REGISTRY, "(not set)", "ShardingSphere runs in Cluster mode with a " + cluster.type()
                        + " repository, so several instances share these keys, and SnowKey has no lease backend for " + cluster.type()
                        + " (available: " + providers.keySet() + "; add snowkey-registry-adapter for zookeeper and jdbc). Set "
                        + PropertyNames.LEASE_REGISTRY + ", or a " + PropertyNames.WORKER_ID + " unique to this instance");
            }
            return leased(settings, provider, new LeaseRequest(copy, settings.layout(), clusterRegistry, modeResolved));
        }
        return staticPlan(settings, 0, true);
    }

    private WorkerLeaseProvider provider(final String registry) {
        WorkerLeaseProvider provider = providers.get(registry.toLowerCase(Locale.ROOT));
        if (provider == null) {
            throw new InvalidSettingException(PropertyNames.LEASE_REGISTRY, registry, "no such lease registry on the classpath; available: "
                    + providers.keySet() + (providers.isEmpty() ? " (add the snowkey-registry-adapter jar for zookeeper and jdbc)" : ""));
        }
        return provider;
    }

    private static ScopePlan leased(final GeneratorSettings settings, final WorkerLeaseProvider provider, final LeaseRequest request) {
        PreparedLease prepared = provider.prepare(request);
        return new ScopePlan(settings, prepared.scopeKey(), prepared::open, false);
    }

    private ScopePlan staticPlan(final GeneratorSettings settings, final int workerId, final boolean unguarded) {
        return new ScopePlan(settings, "static|worker-id=" + workerId, () -> new StaticWorkerLease(workerId, staticMarks), unguarded);
    }

    /**
     * Sets props that every key generator of this JVM inherits where its own props are silent: a YAML
     * {@code IMPROVED_SNOWFLAKE} with no props then takes the application's settings. Affects plans made later.
     */
    public void setDefaults(final Properties props) {
        Properties copy = new Properties();
        if (props != null) {
            copy.putAll(props);
        }
        defaults = copy;
    }

    /**
     * The generator of the plan's scope, created (and its lease opened) on first request, without an owner: it rides
     * on the scope's owners (closed when the last one leaves) or, with none, lives until {@link #close},
     * {@link #closeAll} or JVM shutdown.
     *
     * @throws IllegalStateException when the scope already runs with other generator settings
     */
    public IdGenerator generator(final ScopePlan plan) {
        return join(plan, null, ReleaseMode.AT_JVM_SHUTDOWN);
    }

    /**
     * The generator of the plan's scope, used by {@code owner} (a ShardingSphere context, a Spring context).
     * When every owner of a scope has gone ({@link #release(Object)}), the scope is closed and its lease released.
     */
    public IdGenerator generator(final ScopePlan plan, final Object owner) {
        return join(plan, owner, ReleaseMode.AT_JVM_SHUTDOWN);
    }

    /**
     * Like {@link #generator(ScopePlan, Object)}, for an owner that promises to call {@link #release(Object)} itself,
     * also at JVM shutdown: the shutdown hook then leaves its scopes alone, so that nothing releases the lease
     * while the owner's data sources still run.
     */
    public IdGenerator generatorReleasedByOwner(final ScopePlan plan, final Object owner) {
        return join(plan, owner, ReleaseMode.BY_OWNER);
    }

    /**
     * Joins the plan's scope as {@code owner} ({@code null}: use it without owning it) and returns its open
     * generator, never one that is closing: a join that finds the scope closing waits for the release to finish and
     * opens the next generation, whose lease then starts above the released one. The lease is opened by the first
     * joiner of a generation, outside any lock other scopes need; later joiners of that generation wait for it.
     *
     * @throws IllegalStateException when the scope already runs with other generator settings
     */
    public IdGenerator join(final ScopePlan plan, final Object owner, final ReleaseMode releaseMode) {
        while (true) {
            Scope scope;
            synchronized (scopes) {
                scope = scopes.computeIfAbsent(plan.scopeKey(), key -> new Scope(key, waiting));
            }
            switch (scope.admit(plan, owner, releaseMode)) {
                case JOINED -> {
                    return scope.generator();
                }
                case OPEN_IT -> open(scope, plan);
                default -> {
                    // That generation ended after this thread found it; its key already maps to nothing or the next one.
                }
            }
        }
    }

    private void open(final Scope scope, final ScopePlan plan) {
        IdGenerator generator;
        try {
            generator = create(plan);
        } catch (final RuntimeException | Error ex) {
            forget(scope);
            scope.openFailed();
            throw ex;
        }
        scope.opened(plan, generator);
    }

    /** The owner is gone: closes each scope it was the last owner of, releasing the lease. */
    public void release(final Object owner) {
        for (Scope each : currentScopes()) {
            IdGenerator orphaned = each.leave(owner);
            if (orphaned != null) {
                finishClose(each, orphaned);
            }
        }
    }

    /**
     * Releases the lease of a scope in CLOSING, then lets the key go and wakes joiners, in that order: a join that
     * finds the key free opens a lease only after this one recorded its high-water mark.
     */
    private void finishClose(final Scope scope, final IdGenerator generator) {
        try {
            closeQuietly(scope.key(), generator);
        } finally {
            // Even when the release throws an Error: a generation left in CLOSING would park every later join and
            // close of the key for ever. The Error still reaches the caller.
            forget(scope);
            scope.closed();
        }
    }

    private void forget(final Scope scope) {
        synchronized (scopes) {
            scopes.remove(scope.key(), scope);
        }
    }

    private List<Scope> currentScopes() {
        synchronized (scopes) {
            return new ArrayList<>(scopes.values());
        }
    }

    private IdGenerator create(final ScopePlan plan) {
        installShutdownHook();
        GeneratorSettings settings = plan.settings();
        if (plan.unguardedStaticWorkerId()) {
            LOG.warn("SnowKey runs with worker id 0 because neither '{}' nor '{}' is set: this is only safe while a single instance "
                    + "generates keys; several instances will produce duplicate keys", PropertyNames.LEASE_REGISTRY, PropertyNames.WORKER_ID);
        }
        IdGenerator generator = new IdGenerator(settings.layout(), plan.leaseOpener().get(), clock,
                settings.maxTolerateTimeDifferenceMillis(), settings.maxTimeCacheMillis());
        LOG.info("SnowKey generator for scope {} created: {}", plan.scopeKey(), generator);
        return generator;
    }

    /** The generators of the scopes open now. */
    public Collection<IdGenerator> generators() {
        List<IdGenerator> result = new ArrayList<>();
        for (Scope each : currentScopes()) {
            if (each.isOpen()) {
                result.add(each.generator());
            }
        }
        return result;
    }

    /**
     * Closes the generator of one scope, whoever owns it: its lease is released and the next request creates a new
     * one. An open in flight is waited for and then closed; a close in flight is waited for.
     */
    public void close(final String scopeKey) {
        Scope scope;
        synchronized (scopes) {
            scope = scopes.get(scopeKey);
        }
        if (scope != null) {
            closeIf(scope, scopeOwners -> true);
        }
    }

    /** Closes every generator, releasing each lease with its exact high-water mark. */
    public void closeAll() {
        for (Scope each : currentScopes()) {
            closeIf(each, scopeOwners -> true);
        }
    }

    /** The shutdown hook: closes every scope but those an owner releases in its own order. */
    void closeAllOnShutdown() {
        for (Scope each : currentScopes()) {
            closeIf(each, scopeOwners -> !scopeOwners.containsValue(ReleaseMode.BY_OWNER));
        }
    }

    private void closeIf(final Scope scope, final Predicate<Map<Object, ReleaseMode>> condition) {
        IdGenerator closing = scope.beginClose(condition);
        if (closing != null) {
            finishClose(scope, closing);
        }
    }

    private static void closeQuietly(final String scopeKey, final IdGenerator generator) {
        try {
            generator.close();
        } catch (final RuntimeException ex) {
            LOG.warn("SnowKey could not release the lease of scope {}: {}", scopeKey, ex.toString());
        }
    }

    private void installShutdownHook() {
        if (shutdownHookInstalled.compareAndSet(false, true)) {
            shutdownHooks.accept(this::closeAllOnShutdown);
        }
    }
}
