package org.snowkey.keygen.runtime;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

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
import org.snowkey.keygen.lease.StaticWorkerLease;
import org.snowkey.keygen.lease.WorkerLeaseProvider;

/**
 * The JVM's SnowKey generators, one per scope. Every algorithm instance (and the Spring bean) with the same
 * scope shares one lease and one set of sequence streams, so two instances never issue on the same worker id
 * independently. Leases are released from a shutdown hook, because ShardingSphere never closes algorithms.
 */
public final class SnowKeyRuntime {

    private static final Logger LOG = LoggerFactory.getLogger(SnowKeyRuntime.class);

    private static final SnowKeyRuntime INSTANCE = new SnowKeyRuntime();

    private final Map<String, ScopedGenerator> generators = new ConcurrentHashMap<>();

    /** Who uses each scope; guarded by itself. */
    private final Map<String, Set<Object>> owners = new java.util.HashMap<>();

    /**
     * Owners that release their scopes in their own shutdown order (a Spring context closes its data sources
     * first); the JVM shutdown hook leaves their scopes to them. Guarded by {@link #owners}.
     */
    private final Set<Object> selfReleasingOwners = Collections.newSetFromMap(new IdentityHashMap<>());

    private final Map<String, WorkerLeaseProvider> providers;

    private volatile boolean shutdownHookInstalled;

    /** Props that apply where a key generator sets none (the Spring Boot integration sets them). */
    private volatile Properties defaults = new Properties();

    private SnowKeyRuntime() {
        Map<String, WorkerLeaseProvider> found = new TreeMap<>();
        for (WorkerLeaseProvider each : ServiceLoader.load(WorkerLeaseProvider.class, SnowKeyRuntime.class.getClassLoader())) {
            found.put(each.registry().toLowerCase(Locale.ROOT), each);
        }
        providers = Map.copyOf(found);
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

    private static ScopePlan staticPlan(final GeneratorSettings settings, final int workerId, final boolean unguarded) {
        return new ScopePlan(settings, "static|worker-id=" + workerId, () -> new StaticWorkerLease(workerId), unguarded);
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
     * The generator of the plan's scope, created (and its lease opened) on first request. It lives until
     * {@link #close}, {@link #closeAll} or JVM shutdown.
     *
     * @throws IllegalStateException when the scope already runs with other generator settings
     */
    public IdGenerator generator(final ScopePlan plan) {
        ScopedGenerator existing = generators.get(plan.scopeKey());
        if (existing == null) {
            existing = generators.computeIfAbsent(plan.scopeKey(), key -> create(plan));
        }
        existing.checkCompatible(plan);
        return existing.generator();
    }

    /**
     * The generator of the plan's scope, used by {@code owner} (a ShardingSphere context, a Spring context).
     * When every owner of a scope has gone ({@link #release(Object)}), the scope is closed and its lease released.
     */
    public IdGenerator generator(final ScopePlan plan, final Object owner) {
        synchronized (owners) {
            IdGenerator generator = generator(plan);
            owners.computeIfAbsent(plan.scopeKey(), key -> Collections.newSetFromMap(new IdentityHashMap<>())).add(owner);
            return generator;
        }
    }

    /**
     * Like {@link #generator(ScopePlan, Object)}, for an owner that promises to call {@link #release(Object)} itself,
     * also at JVM shutdown: the shutdown hook then leaves its scopes alone, so that nothing releases the lease
     * while the owner's data sources still run.
     */
    public IdGenerator generatorReleasedByOwner(final ScopePlan plan, final Object owner) {
        synchronized (owners) {
            IdGenerator generator = generator(plan, owner);
            selfReleasingOwners.add(owner);
            return generator;
        }
    }

    /** The owner is gone: closes each scope it was the last owner of, releasing the lease. */
    public void release(final Object owner) {
        List<String> orphaned = new ArrayList<>();
        synchronized (owners) {
            selfReleasingOwners.remove(owner);
            owners.forEach((scopeKey, scopeOwners) -> {
                if (scopeOwners.remove(owner) && scopeOwners.isEmpty()) {
                    orphaned.add(scopeKey);
                }
            });
            orphaned.forEach(owners::remove);
        }
        orphaned.forEach(this::close);
    }

    private ScopedGenerator create(final ScopePlan plan) {
        installShutdownHook();
        GeneratorSettings settings = plan.settings();
        if (plan.unguardedStaticWorkerId()) {
            LOG.warn("SnowKey runs with worker id 0 because neither '{}' nor '{}' is set: this is only safe while a single instance "
                    + "generates keys; several instances will produce duplicate keys", PropertyNames.LEASE_REGISTRY, PropertyNames.WORKER_ID);
        }
        IdGenerator generator = new IdGenerator(settings.layout(), plan.leaseOpener().get(), WallClock.system(),
                settings.maxTolerateTimeDifferenceMillis(), settings.maxTimeCacheMillis());
        LOG.info("SnowKey generator for scope {} created: {}", plan.scopeKey(), generator);
        return new ScopedGenerator(plan, generator);
    }

    /** The generators created so far. */
    public Collection<IdGenerator> generators() {
        List<IdGenerator> result = new ArrayList<>();
        generators.values().forEach(each -> result.add(each.generator()));
        return result;
    }

    /** Closes the generator of one scope: its lease is released and the next request creates a new one. */
    public void close(final String scopeKey) {
        synchronized (owners) {
            owners.remove(scopeKey);
        }
        ScopedGenerator removed = generators.remove(scopeKey);
        if (removed != null) {
            closeQuietly(scopeKey, removed.generator());
        }
    }

    /** Closes every generator, releasing each lease with its exact high-water mark. */
    public void closeAll() {
        for (String each : new ArrayList<>(generators.keySet())) {
            close(each);
        }
    }

    /** The shutdown hook: closes every scope but those an owner releases in its own order. */
    void closeAllOnShutdown() {
        List<String> scopes = new ArrayList<>();
        synchronized (owners) {
            for (String each : generators.keySet()) {
                if (owners.getOrDefault(each, Set.of()).stream().noneMatch(selfReleasingOwners::contains)) {
                    scopes.add(each);
                }
            }
        }
        scopes.forEach(this::close);
    }

    private static void closeQuietly(final String scopeKey, final IdGenerator generator) {
        try {
            generator.close();
        } catch (final RuntimeException ex) {
            LOG.warn("SnowKey could not release the lease of scope {}: {}", scopeKey, ex.toString());
        }
    }

    private void installShutdownHook() {
        if (shutdownHookInstalled) {
            return;
        }
        synchronized (this) {
            if (!shutdownHookInstalled) {
                Runtime.getRuntime().addShutdownHook(new Thread(this::closeAllOnShutdown, "snowkey-release-leases"));
                shutdownHookInstalled = true;
            }
        }
    }

    /** A generator and the settings it was created with. */
    private record ScopedGenerator(ScopePlan plan, IdGenerator generator) {

        void checkCompatible(final ScopePlan other) {
            GeneratorSettings mine = plan.settings();
            GeneratorSettings theirs = other.settings();
            if (!mine.layout().equals(theirs.layout()) || mine.maxTolerateTimeDifferenceMillis() != theirs.maxTolerateTimeDifferenceMillis()
                    || mine.maxTimeCacheMillis() != theirs.maxTimeCacheMillis()) {
                throw new IllegalStateException("SnowKey scope " + plan.scopeKey() + " already runs with " + describe(mine)
                        + "; another key generator of the same scope asks for " + describe(theirs)
                        + ". Key generators sharing a worker lease must share the layout: align the props or use another lease-pool");
            }
        }

        private static String describe(final GeneratorSettings settings) {
            return settings.layout() + ", " + PropertyNames.MAX_TOLERATE_TIME_DIFFERENCE_MILLISECONDS + "=" + settings.maxTolerateTimeDifferenceMillis()
                    + ", " + PropertyNames.MAX_TIME_CACHE_MILLISECONDS + "=" + settings.maxTimeCacheMillis();
        }
    }
}
