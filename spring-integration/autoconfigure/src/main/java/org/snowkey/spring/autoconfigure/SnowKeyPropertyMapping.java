package org.snowkey.spring.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.Function;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.config.SequenceScope;
import org.snowkey.keygen.config.SettingText;
import org.snowkey.keygen.segment.SegmentPropertyNames;
import org.snowkey.keygen.store.KnownStore;
import org.springframework.util.ClassUtils;

/**
 * The table between {@code snowkey.*} properties and key generator props, one per key generator ({@link #SNOWFLAKE},
 * {@link #SEGMENT}): used to build the props, to publish them as the JVM's defaults, and to say which
 * {@code snowkey.*} property an {@link InvalidSettingException} of the key generator is about. The prop names come from
 * the plugin ({@link PropertyNames}, {@link SegmentPropertyNames}, {@link KnownStore}); defaults are not restated here:
 * a {@code snowkey.*} property that is not set emits no prop, and the key generator applies its own default. The two
 * key generators need two tables: both have a {@code jdbc-url} prop, and each maps it from a property of its own
 * ({@code snowkey.jdbc.url}, {@code snowkey.segment.jdbc.url}), both of one store class
 * ({@link SnowKeyProperties.Jdbc}), mapped by one method ({@link #stores}).
 */
public final class SnowKeyPropertyMapping {

    /** {@code IMPROVED_SNOWFLAKE}'s table, in the order of the configuration reference. */
    public static final SnowKeyPropertyMapping SNOWFLAKE = new SnowKeyPropertyMapping("snowkey.", "snowkey.lease.registry", p -> p.getLease().getRegistry())
            .add(PropertyNames.WORKER_ID_BITS, "worker-id-bits", SnowKeyProperties::getWorkerIdBits)
            .add(PropertyNames.SEQUENCE_LOW_BITS, "sequence-low-bits", SnowKeyProperties::getSequenceLowBits)
            .add(PropertyNames.EPOCH, "epoch", SnowKeyProperties::getEpoch)
            .add(PropertyNames.MAX_TOLERATE_TIME_DIFFERENCE_MILLISECONDS, "max-tolerate-time-difference", SnowKeyProperties::getMaxTolerateTimeDifference)
            .add(PropertyNames.MAX_TIME_CACHE_MILLISECONDS, "max-time-cache", SnowKeyProperties::getMaxTimeCache)
            .add(PropertyNames.MAX_WORKER_IDS_PER_INSTANCE, "max-worker-ids-per-instance", SnowKeyProperties::getMaxWorkerIdsPerInstance)
            .add(PropertyNames.SEQUENCE_SCOPE, "sequence-scope", SnowKeyProperties::getSequenceScope)
            .add(PropertyNames.WORKER_ID, "worker-id", SnowKeyProperties::getWorkerId)
            .add(PropertyNames.LEASE_REGISTRY, "lease.registry", p -> p.getLease().getRegistry())
            .add(PropertyNames.LEASE_POOL, "lease.pool", p -> p.getLease().getPool())
            .add(PropertyNames.LEASE_DURATION_MILLISECONDS, "lease.duration", p -> p.getLease().getDuration())
            .add(PropertyNames.LEASE_ACQUIRE_TIMEOUT_MILLISECONDS, "lease.acquire-timeout", p -> p.getLease().getAcquireTimeout())
            .add(PropertyNames.INSTANCE_ID, "lease.instance-id", p -> p.getLease().getInstanceId())
            .stores(SnowKeyProperties::getZookeeper, SnowKeyProperties::getJdbc, SnowKeyProperties::getEtcd);

    /** {@code SNOWKEY_SEGMENT}'s table: {@code snowkey.segment.*}. */
    public static final SnowKeyPropertyMapping SEGMENT = new SnowKeyPropertyMapping("snowkey.segment.", "snowkey.segment.allocator",
            p -> p.getSegment().getAllocator())
            .add(SegmentPropertyNames.ALLOCATOR, "allocator", p -> p.getSegment().getAllocator())
            .add(SegmentPropertyNames.KEY, "key", p -> p.getSegment().getKey())
            .add(SegmentPropertyNames.START_VALUE, "start-value", p -> p.getSegment().getStartValue())
            .add(SegmentPropertyNames.START_VALUES, "start-values", p -> p.getSegment().getStartValues())
            .add(SegmentPropertyNames.STEP_MIN, "step-min", p -> p.getSegment().getStepMin())
            .add(SegmentPropertyNames.STEP_MAX, "step-max", p -> p.getSegment().getStepMax())
            .add(SegmentPropertyNames.RANGE_LIFETIME_MILLISECONDS, "range-lifetime", p -> p.getSegment().getRangeLifetime())
            .add(SegmentPropertyNames.PREFETCH_PERCENT, "prefetch-percent", p -> p.getSegment().getPrefetchPercent())
            .add(SegmentPropertyNames.FETCH_TIMEOUT_MILLISECONDS, "fetch-timeout", p -> p.getSegment().getFetchTimeout())
            .stores(p -> p.getSegment().getZookeeper(), p -> p.getSegment().getJdbc(), p -> p.getSegment().getEtcd());

    /** Prop to its property. */
    private final Map<String, Entry> entries = new LinkedHashMap<>();

    private final String springPrefix;

    /** The property naming the store (lease registry, segment allocator), and its value. */
    private final String backendProperty;

    private final Function<SnowKeyProperties, String> backendName;

    private SnowKeyPropertyMapping(final String springPrefix, final String backendProperty, final Function<SnowKeyProperties, String> backendName) {
        this.springPrefix = springPrefix;
        this.backendProperty = backendProperty;
        this.backendName = backendName;
    }

    private SnowKeyPropertyMapping add(final String prop, final String name, final Function<SnowKeyProperties, Object> getter) {
        entries.put(prop, new Entry(springPrefix + name, getter, null));
        return this;
    }

    /**
     * The store properties of this key generator: a store's props are spelled {@code <registry>-<name>} for both key
     * generators, its properties {@code <prefix><registry>.<name>}.
     */
    private SnowKeyPropertyMapping stores(final Function<SnowKeyProperties, SnowKeyProperties.ZooKeeper> zookeeper,
                                          final Function<SnowKeyProperties, SnowKeyProperties.Jdbc> jdbc,
                                          final Function<SnowKeyProperties, SnowKeyProperties.Etcd> etcd) {
        store(KnownStore.ZOOKEEPER, "server-lists", zookeeper.andThen(SnowKeyProperties.ZooKeeper::getServerLists));
        store(KnownStore.ZOOKEEPER, "namespace", zookeeper.andThen(SnowKeyProperties.ZooKeeper::getNamespace));
        store(KnownStore.ZOOKEEPER, "digest", zookeeper.andThen(SnowKeyProperties.ZooKeeper::getDigest));
        store(KnownStore.JDBC, "url", jdbc.andThen(SnowKeyProperties.Jdbc::getUrl));
        store(KnownStore.JDBC, "username", jdbc.andThen(SnowKeyProperties.Jdbc::getUsername));
        store(KnownStore.JDBC, "password", jdbc.andThen(SnowKeyProperties.Jdbc::getPassword));
        store(KnownStore.JDBC, "table", jdbc.andThen(SnowKeyProperties.Jdbc::getTable));
        store(KnownStore.JDBC, "create-table", jdbc.andThen(SnowKeyProperties.Jdbc::getCreateTable));
        store(KnownStore.ETCD, "endpoints", etcd.andThen(SnowKeyProperties.Etcd::getEndpoints));
        store(KnownStore.ETCD, "namespace", etcd.andThen(SnowKeyProperties.Etcd::getNamespace));
        store(KnownStore.ETCD, "user", etcd.andThen(SnowKeyProperties.Etcd::getUser));
        store(KnownStore.ETCD, "password", etcd.andThen(SnowKeyProperties.Etcd::getPassword));
        store(KnownStore.ETCD, "password-env", etcd.andThen(SnowKeyProperties.Etcd::getPasswordEnv));
        store(KnownStore.ETCD, "password-file", etcd.andThen(SnowKeyProperties.Etcd::getPasswordFile));
        store(KnownStore.ETCD, "ca-file", etcd.andThen(SnowKeyProperties.Etcd::getCaFile));
        store(KnownStore.ETCD, "cert-file", etcd.andThen(SnowKeyProperties.Etcd::getCertFile));
        store(KnownStore.ETCD, "key-file", etcd.andThen(SnowKeyProperties.Etcd::getKeyFile));
        store(KnownStore.ETCD, "request-timeout-milliseconds", "request-timeout", etcd.andThen(SnowKeyProperties.Etcd::getRequestTimeout));
        return this;
    }

    private void store(final KnownStore backend, final String name, final Function<SnowKeyProperties, ?> getter) {
        store(backend, name, name, getter);
    }

    /** A store property whose Spring name differs from the prop's (a duration: {@code request-timeout} for {@code request-timeout-milliseconds}). */
    private void store(final KnownStore backend, final String propName, final String springName, final Function<SnowKeyProperties, ?> getter) {
        entries.put(backend.propPrefix() + propName, new Entry(springPrefix + backend.storeName() + "." + springName, getter::apply, backend));
    }

    /** Prop names to {@code snowkey.*} names. */
    public Map<String, String> names() {
        Map<String, String> result = new LinkedHashMap<>();
        entries.forEach((prop, entry) -> result.put(prop, entry.springName()));
        return result;
    }

    /**
     * The key generator props for these settings: every value that is set (and nothing else), durations in
     * milliseconds. A store's values are emitted only when its backend is on the class path; a value set for a backend
     * that is not, or the property naming the store ({@code snowkey.lease.registry}, {@code snowkey.segment.allocator})
     * naming one, fails with the artifact to add.
     *
     * @param classLoader where the backends are looked for (the application context's)
     * @throws SnowKeyConfigurationException naming the {@code snowkey.*} property whose backend is missing
     */
    public Properties toProps(final SnowKeyProperties properties, final ClassLoader classLoader) {
        String backend = backendName.apply(properties);
        KnownStore.byName(backend).filter(each -> !present(each, classLoader)).ifPresent(each -> {
            throw missing(backendProperty, backend, each);
        });
        Properties props = new Properties();
        entries.forEach((prop, entry) -> {
            Object value = entry.getter().apply(properties);
            if (value == null || value instanceof String text && text.isBlank()) {
                return;
            }
            if (entry.backend() != null && !present(entry.backend(), classLoader)) {
                throw missing(entry.springName(), SettingText.value(prop, value), entry.backend());
            }
            props.setProperty(prop, propValue(value));
        });
        return props;
    }

    /**
     * Publishes these settings as the JVM's defaults of this key generator's YAML instances, the one way for both key
     * generators: builds the props, hands them to {@code check} (parse, and whatever else must hold before they are
     * published), then to {@code setDefaults}. Invalid settings fail naming the {@code snowkey.*} property, and empty
     * defaults are published instead (key generators built later in this JVM must not inherit them). The defaults are
     * JVM-wide because ShardingSphere builds its key generators outside Spring: the context that started last wins.
     *
     * @param classLoader where the backends are looked for (the application context's)
     * @param <S>         what {@code check} makes of the props
     * @throws SnowKeyConfigurationException naming the property at fault
     */
    <S> S publish(final SnowKeyProperties properties, final ClassLoader classLoader, final Function<Properties, S> check,
                  final Consumer<Properties> setDefaults) {
        Properties props;
        S checked;
        try {
            props = toProps(properties, classLoader);
            checked = check.apply(props);
        } catch (final InvalidSettingException ex) {
            setDefaults.accept(new Properties());
            throw translate(ex, properties);
        } catch (final SnowKeyConfigurationException ex) {
            setDefaults.accept(new Properties());
            throw ex;
        }
        setDefaults.accept(props);
        return checked;
    }

    private static boolean present(final KnownStore backend, final ClassLoader classLoader) {
        return ClassUtils.isPresent(backend.probeClass(), classLoader);
    }

    private static SnowKeyConfigurationException missing(final String springName, final String shownValue, final KnownStore backend) {
        return new SnowKeyConfigurationException(springName, InvalidSettingException.message(springName, shownValue, true, backend.notOnClassPath()), null);
    }

    private static String propValue(final Object value) {
        if (value instanceof Duration duration) {
            return Long.toString(duration.toMillis());
        }
        if (value instanceof SequenceScope scope) {
            return scope.propertyValue();
        }
        return String.valueOf(value);
    }

    /**
     * The key generator's complaint, told in terms of {@code snowkey.*}: "Invalid SnowKey property
     * 'snowkey.lease.duration' = '500ms': expected ... (key generator prop 'lease-duration-milliseconds' = '500')",
     * built from the exception's fields, never from its message text.
     */
    public SnowKeyConfigurationException translate(final InvalidSettingException ex, final SnowKeyProperties properties) {
        Entry entry = entries.get(ex.property());
        if (entry == null) {
            return new SnowKeyConfigurationException(ex.property(), ex.getMessage(), ex);
        }
        // The plugin's value is already redacted where it must be (passwords, URL credentials); durations read better as Spring wrote them.
        Object springValue = entry.getter().apply(properties);
        String shown = springValue instanceof Duration duration ? duration.toMillis() + "ms" : ex.shownValue();
        String pluginProp = ex.valueQuoted() ? " (key generator prop '" + ex.property() + "' = '" + ex.shownValue() + "')"
                : " (key generator prop '" + ex.property() + "')";
        return new SnowKeyConfigurationException(entry.springName(),
                InvalidSettingException.message(entry.springName(), shown, ex.valueQuoted(), ex.allowed() + pluginProp), ex);
    }

    /**
     * @param backend the store the property belongs to, or null for the generator's own and the shared lease properties
     */
    private record Entry(String springName, Function<SnowKeyProperties, Object> getter, KnownStore backend) {
    }
}
