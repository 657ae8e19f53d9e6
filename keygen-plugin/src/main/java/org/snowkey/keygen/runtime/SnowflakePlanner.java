package org.snowkey.keygen.runtime;

import java.util.Arrays;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.snowkey.keygen.config.GeneratorSettings;
import org.snowkey.keygen.config.InheritedDefaults;
import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.store.KnownStore;
import org.snowkey.keygen.store.StoreCatalogue;
import org.snowkey.keygen.lease.LeaseBackendSettings;
import org.snowkey.keygen.lease.LeaseRequest;
import org.snowkey.keygen.lease.PreparedLease;
import org.snowkey.keygen.lease.StaticHighWaterMarks;
import org.snowkey.keygen.lease.StaticWorkerLease;
import org.snowkey.keygen.lease.WorkerLeaseProvider;
import org.snowkey.keygen.mode.ClusterRegistry;

/**
 * Turns props into settings and settings into a {@link SnowflakePlan}, without I/O and without touching the live scopes
 * ({@link SnowflakeRuntime} keeps those). Two steps (docs/design.md, "Settings"):
 * <ol>
 *   <li>{@link #parse}: every prop is parsed and validated once, at start-up (an algorithm's {@code init()}, the
 *       Spring bean), into an immutable {@link SnowflakeSettings}, also the props of a lease that is not taken, so
 *       that an out-of-range value always fails and a value that cannot apply is rejected instead of ignored;</li>
 *   <li>{@link #plan}: the settings and ShardingSphere's mode decide the scope; nothing is parsed again.</li>
 * </ol>
 */
public final class SnowflakePlanner {

    /**
     * The planner of the JVM. Static because ShardingSphere creates key generate algorithms through its SPI with a
     * no-argument constructor and hands them nothing to share: the lease backends found on the class path and the
     * defaults the Spring integration publishes reach every algorithm from here.
     */
    private static final SnowflakePlanner INSTANCE = new SnowflakePlanner(StoreCatalogue.discover(WorkerLeaseProvider.class, WorkerLeaseProvider::registry),
            StaticHighWaterMarks.jvm());

    private final StoreCatalogue<WorkerLeaseProvider> providers;

    /** Every lease prop: those all registries share and each backend's own; none of them applies without a lease. */
    private final Set<String> leaseProps;

    /** Where the static leases of the plans made here record and read their high-water marks. */
    private final StaticHighWaterMarks staticMarks;

    /** Props that apply where a key generator sets none (the Spring Boot integration sets them). */
    private final InheritedDefaults defaults = new InheritedDefaults();

    /**
     * @param providers lease backends by lower-case registry name
     * @param staticMarks the high-water marks of static leases
     */
    public SnowflakePlanner(final Map<String, WorkerLeaseProvider> providers, final StaticHighWaterMarks staticMarks) {
        this.providers = new StoreCatalogue<>(providers, WorkerLeaseProvider::propertyNames, "lease backend");
        TreeSet<String> names = new TreeSet<>(PropertyNames.SHARED_LEASE);
        names.addAll(this.providers.allPropertyNames());
        this.leaseProps = Collections.unmodifiableSortedSet(names);
        this.staticMarks = staticMarks;
    }

    public static SnowflakePlanner get() {
        return INSTANCE;
    }

    /**
     * Sets props that every key generator of this JVM inherits where its own props are silent
     * ({@link #parseInheritingDefaults}): a YAML {@code IMPROVED_SNOWFLAKE} with no props then takes the application's
     * settings. Affects settings parsed later.
     */
    public void setDefaults(final Properties props) {
        defaults.set(props);
    }

    /**
     * Parses and validates a key generator's props over the JVM's defaults ({@link #setDefaults}).
     *
     * @throws InvalidSettingException naming the prop and the value
     */
    public SnowflakeSettings parseInheritingDefaults(final Properties props) {
        return defaults.parse(props, this::parse);
    }

    /**
     * Parses and validates these props alone: the generator's, the shared lease props and each backend's that is
     * named or has a prop set. Rejects unknown props, props of a backend that is not on the class path (naming its
     * artifact) and lease props that cannot apply (a static worker id, another registry's props).
     *
     * @throws InvalidSettingException naming the prop and the value
     */
    public SnowflakeSettings parse(final Properties props) {
        Properties copy = copy(props);
        PropertyReader reader = new PropertyReader(copy);
        String registryText = reader.text(PropertyNames.LEASE_REGISTRY);
        String registry = registryText == null ? null : registryText.toLowerCase(Locale.ROOT);
        if (registry != null) {
            // Before the unknown-prop check: without its backend, the backend's props would look unknown.
            provider(registryText);
        }
        rejectPropsOfAbsentBackends(copy);
        GeneratorSettings generator = GeneratorSettings.parse(copy, providers.allPropertyNames(), System.currentTimeMillis());
        LeaseTerms terms = LeaseTerms.parse(reader);
        rejectWhatCannotApply(reader, generator, registry);
        Map<String, LeaseBackendSettings> backends = new TreeMap<>();
        providers.byName().forEach((name, provider) -> {
            if (name.equals(registry) || registry == null && firstSet(reader, provider.propertyNames()) != null) {
                backends.put(name, provider.parse(copy, terms));
            }
        });
        return new SnowflakeSettings(generator, registry, terms, backends, copy);
    }

    /**
     * Decides the scope of parsed settings in the mode ShardingSphere runs in, without I/O.
     *
     * @param clusterRegistry the ShardingSphere Cluster mode repository, when there is one
     * @throws InvalidSettingException when the mode leaves a required value unset, or has no backend
     */
    public SnowflakePlan plan(final SnowflakeSettings settings, final Optional<ClusterRegistry> clusterRegistry) {
        if (settings.registry() != null) {
            return leased(settings, settings.registry(), clusterRegistry);
        }
        if (settings.generator().workerId() != null) {
            return staticPlan(settings.generator(), settings.generator().workerId(), false);
        }
        if (clusterRegistry.isPresent()) {
            String type = clusterRegistry.get().type();
            String registry = type.toLowerCase(Locale.ROOT);
            if (providers.get(registry) == null) {
                throw new InvalidSettingException(PropertyNames.LEASE_REGISTRY, null, "ShardingSphere runs in Cluster mode with a " + type
                        + " repository, so several instances share these keys, and SnowKey has no lease backend for " + type + " ("
                        + providers.whyAbsent(registry)
                        + "). Set " + PropertyNames.LEASE_REGISTRY + ", or a " + PropertyNames.WORKER_ID + " unique to this instance");
            }
            rejectOtherBackends(new PropertyReader(properties(settings)), registry, "ShardingSphere's Cluster mode leases from " + type);
            return leased(settings, registry, clusterRegistry);
        }
        return staticPlan(settings.generator(), 0, true);
    }

    /**
     * {@link #plan} for a key generator ShardingSphere has told its mode: Standalone when {@code clusterRegistry} is
     * empty. There, with neither {@code lease-registry} nor {@code worker-id}, nothing names where a worker id could be
     * leased, so a lease prop that is set (a backend's, or one shared by both) cannot apply and would leave every
     * instance on worker id 0 while the props suggest a lease: it is rejected. Callers that do not know the mode (the
     * Spring bean, whose settings also serve Cluster-mode key generators; an instance ShardingSphere never told) use
     * {@link #plan} and get worker id 0 with its warning.
     */
    public SnowflakePlan planInKnownMode(final SnowflakeSettings settings, final Optional<ClusterRegistry> clusterRegistry) {
        if (clusterRegistry.isEmpty() && settings.registry() == null && settings.generator().workerId() == null) {
            PropertyReader reader = new PropertyReader(properties(settings));
            String set = firstSet(reader, leaseProps);
            if (set != null) {
                throw new InvalidSettingException(set, reader.props().get(set), "cannot apply: ShardingSphere runs in Standalone mode and neither "
                        + PropertyNames.LEASE_REGISTRY + " nor " + PropertyNames.WORKER_ID + " is set, so no lease is taken and every instance gets worker id 0;"
                        + " set " + PropertyNames.LEASE_REGISTRY + " " + providers.names() + " to lease one, or remove " + set);
            }
        }
        return plan(settings, clusterRegistry);
    }

    /** {@link #parse} and {@link #plan} in one step, for a caller that has the props and the mode at once (tools, tests). */
    public SnowflakePlan plan(final Properties props, final Optional<ClusterRegistry> clusterRegistry) {
        return plan(parse(props), clusterRegistry);
    }

    private WorkerLeaseProvider provider(final String registry) {
        return providers.require(PropertyNames.LEASE_REGISTRY, registry, () -> "no such lease registry; available: " + providers.names() + ", and with "
                + KnownStore.ARTIFACT + " " + Arrays.stream(KnownStore.values()).map(KnownStore::storeName).toList());
    }

    /** A prop of a backend SnowKey ships but that is not on the class path: say so, rather than "unknown property". */
    private void rejectPropsOfAbsentBackends(final Properties props) {
        for (Object key : props.keySet()) {
            providers.rejectIfOfAbsentStore(String.valueOf(key), props.get(key));
        }
    }

    private void rejectWhatCannotApply(final PropertyReader reader, final GeneratorSettings generator, final String registry) {
        if (generator.workerId() != null) {
            if (registry != null) {
                throw new InvalidSettingException(PropertyNames.WORKER_ID, generator.workerId(), "a static worker id and " + PropertyNames.LEASE_REGISTRY
                        + " = '" + registry + "' exclude each other; remove one");
            }
            String set = firstSet(reader, leaseProps);
            if (set != null) {
                throw new InvalidSettingException(set, reader.props().get(set), "cannot apply: " + PropertyNames.WORKER_ID + " = '" + generator.workerId()
                        + "' is a static worker id, so no lease is taken; remove " + set + " or " + PropertyNames.WORKER_ID);
            }
        }
        if (registry != null) {
            rejectOtherBackends(reader, registry, PropertyNames.LEASE_REGISTRY + " = '" + registry + "'");
        }
    }

    /** A prop of one backend while another leases would be silently ignored: reject it. */
    private void rejectOtherBackends(final PropertyReader reader, final String registry, final String because) {
        for (Map.Entry<String, WorkerLeaseProvider> each : providers.byName().entrySet()) {
            String set = each.getKey().equals(registry) ? null : firstSet(reader, each.getValue().propertyNames());
            if (set != null) {
                throw providers.cannotApply(set, reader.props().get(set), each.getKey(), because);
            }
        }
    }

    private static String firstSet(final PropertyReader reader, final Set<String> names) {
        return new TreeSet<>(names).stream().filter(reader::has).findFirst().orElse(null);
    }

    private SnowflakePlan leased(final SnowflakeSettings settings, final String registry, final Optional<ClusterRegistry> clusterRegistry) {
        WorkerLeaseProvider provider = provider(registry);
        LeaseBackendSettings backend = settings.backends().get(registry);
        if (backend == null) {
            // The mode chose this backend and none of its props is set: its defaults (and the mode) apply.
            backend = provider.parse(properties(settings), settings.lease());
        }
        PreparedLease prepared = provider.prepare(new LeaseRequest(backend, settings.lease(), settings.generator().layout(), clusterRegistry));
        return new SnowflakePlan(settings.generator(), prepared.scopeKey(), prepared::open, false);
    }

    private SnowflakePlan staticPlan(final GeneratorSettings settings, final int workerId, final boolean unguarded) {
        return new SnowflakePlan(settings, "static|worker-id=" + workerId, () -> new StaticWorkerLease(workerId, settings.layout().epochMillis(), staticMarks),
                unguarded);
    }

    private static Properties properties(final SnowflakeSettings settings) {
        Properties props = new Properties();
        props.putAll(settings.props());
        return props;
    }

    private static Properties copy(final Properties props) {
        Properties copy = new Properties();
        if (props != null) {
            copy.putAll(props);
        }
        return copy;
    }
}
