package org.snowkey.spring.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.config.SequenceScope;
import org.snowkey.keygen.config.SettingText;
import org.snowkey.keygen.store.KnownStore;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.keygen.segment.runtime.SegmentProps;
import org.springframework.util.ClassUtils;

/**
 * The one table between {@code snowkey.*} properties and key generator props, one per key generator: used to build
 * the props, and to say which {@code snowkey.*} property an {@link InvalidSettingException} of the key generator is
 * about. The prop names come from the plugin ({@link PropertyNames}, {@link SegmentProps}, {@link KnownStore});
 * defaults are not restated here: a {@code snowkey.*} property that is not set emits no prop, and the key generator
 * applies its own default. The two key generators need two tables: both have a {@code jdbc-url} prop, and each maps
 * it from a property of its own ({@code snowkey.jdbc.url}, {@code snowkey.segment.jdbc.url}).
 */
public final class SnowKeyPropertyMapping {

    /** {@code IMPROVED_SNOWFLAKE} prop to its {@code snowkey.*} property, in the order of the configuration reference. */
    private static final Map<String, Entry> ENTRIES = new LinkedHashMap<>();

    /** {@code SNOWKEY_SEGMENT} prop to its {@code snowkey.segment.*} property. */
    private static final Map<String, Entry> SEGMENT_ENTRIES = new LinkedHashMap<>();

    static {
        add(PropertyNames.WORKER_ID_BITS, "snowkey.worker-id-bits", SnowKeyProperties::getWorkerIdBits);
        add(PropertyNames.SEQUENCE_LOW_BITS, "snowkey.sequence-low-bits", SnowKeyProperties::getSequenceLowBits);
        add(PropertyNames.EPOCH, "snowkey.epoch", SnowKeyProperties::getEpoch);
        add(PropertyNames.MAX_TOLERATE_TIME_DIFFERENCE_MILLISECONDS, "snowkey.max-tolerate-time-difference", SnowKeyProperties::getMaxTolerateTimeDifference);
        add(PropertyNames.MAX_TIME_CACHE_MILLISECONDS, "snowkey.max-time-cache", SnowKeyProperties::getMaxTimeCache);
        add(PropertyNames.SEQUENCE_SCOPE, "snowkey.sequence-scope", SnowKeyProperties::getSequenceScope);
        add(PropertyNames.WORKER_ID, "snowkey.worker-id", SnowKeyProperties::getWorkerId);
        add(PropertyNames.LEASE_REGISTRY, "snowkey.lease.registry", p -> p.getLease().getRegistry());
        add(PropertyNames.LEASE_POOL, "snowkey.lease.pool", p -> p.getLease().getPool());
        add(PropertyNames.LEASE_DURATION_MILLISECONDS, "snowkey.lease.duration", p -> p.getLease().getDuration());
        add(PropertyNames.LEASE_ACQUIRE_TIMEOUT_MILLISECONDS, "snowkey.lease.acquire-timeout", p -> p.getLease().getAcquireTimeout());
        add(PropertyNames.INSTANCE_ID, "snowkey.lease.instance-id", p -> p.getLease().getInstanceId());
        // A backend's props are spelled <registry>-<name>, its properties snowkey.<registry>.<name>.
        addBackend(KnownStore.ZOOKEEPER, "server-lists", p -> p.getZookeeper().getServerLists());
        addBackend(KnownStore.ZOOKEEPER, "namespace", p -> p.getZookeeper().getNamespace());
        addBackend(KnownStore.ZOOKEEPER, "digest", p -> p.getZookeeper().getDigest());
        addBackend(KnownStore.JDBC, "url", p -> p.getJdbc().getUrl());
        addBackend(KnownStore.JDBC, "username", p -> p.getJdbc().getUsername());
        addBackend(KnownStore.JDBC, "password", p -> p.getJdbc().getPassword());
        addBackend(KnownStore.JDBC, "table", p -> p.getJdbc().getTable());
        addBackend(KnownStore.JDBC, "create-table", p -> p.getJdbc().getCreateTable());

        addSegment(SegmentProps.ALLOCATOR, "allocator", p -> p.getSegment().getAllocator());
        addSegment(SegmentProps.KEY, "key", p -> p.getSegment().getKey());
        addSegment(SegmentProps.START_VALUE, "start-value", p -> p.getSegment().getStartValue());
        addSegment(SegmentProps.START_VALUES, "start-values", p -> p.getSegment().getStartValues());
        addSegment(SegmentSettings.STEP_MIN, "step-min", p -> p.getSegment().getStepMin());
        addSegment(SegmentSettings.STEP_MAX, "step-max", p -> p.getSegment().getStepMax());
        addSegment(SegmentSettings.RANGE_LIFETIME_MILLISECONDS, "range-lifetime", p -> p.getSegment().getRangeLifetime());
        addSegment(SegmentSettings.PREFETCH_PERCENT, "prefetch-percent", p -> p.getSegment().getPrefetchPercent());
        addSegment(SegmentSettings.FETCH_TIMEOUT_MILLISECONDS, "fetch-timeout", p -> p.getSegment().getFetchTimeout());
        // The allocator's props are spelled as the lease's (<registry>-<name>), its properties snowkey.segment.<registry>.<name>.
        addSegmentBackend(KnownStore.ZOOKEEPER, "server-lists", p -> p.getSegment().getZookeeper().getServerLists());
        addSegmentBackend(KnownStore.ZOOKEEPER, "namespace", p -> p.getSegment().getZookeeper().getNamespace());
        addSegmentBackend(KnownStore.ZOOKEEPER, "digest", p -> p.getSegment().getZookeeper().getDigest());
        addSegmentBackend(KnownStore.JDBC, "url", p -> p.getSegment().getJdbc().getUrl());
        addSegmentBackend(KnownStore.JDBC, "username", p -> p.getSegment().getJdbc().getUsername());
        addSegmentBackend(KnownStore.JDBC, "password", p -> p.getSegment().getJdbc().getPassword());
        addSegmentBackend(KnownStore.JDBC, "table", p -> p.getSegment().getJdbc().getTable());
        addSegmentBackend(KnownStore.JDBC, "create-table", p -> p.getSegment().getJdbc().getCreateTable());
    }

    private SnowKeyPropertyMapping() {
    }

    private static void add(final String prop, final String springName, final Function<SnowKeyProperties, Object> getter) {
        ENTRIES.put(prop, new Entry(springName, getter, null));
    }

    private static void addBackend(final KnownStore backend, final String name, final Function<SnowKeyProperties, Object> getter) {
        ENTRIES.put(backend.propPrefix() + name, new Entry("snowkey." + backend.storeName() + "." + name, getter, backend));
    }

    private static void addSegment(final String prop, final String name, final Function<SnowKeyProperties, Object> getter) {
        SEGMENT_ENTRIES.put(prop, new Entry("snowkey.segment." + name, getter, null));
    }

    private static void addSegmentBackend(final KnownStore backend, final String name, final Function<SnowKeyProperties, Object> getter) {
        SEGMENT_ENTRIES.put(backend.propPrefix() + name, new Entry("snowkey.segment." + backend.storeName() + "." + name, getter, backend));
    }

    /** {@code IMPROVED_SNOWFLAKE} prop names to {@code snowkey.*} names. */
    public static Map<String, String> names() {
        return names(ENTRIES);
    }

    /** {@code SNOWKEY_SEGMENT} prop names to {@code snowkey.segment.*} names. */
    public static Map<String, String> segmentNames() {
        return names(SEGMENT_ENTRIES);
    }

    private static Map<String, String> names(final Map<String, Entry> table) {
        Map<String, String> result = new LinkedHashMap<>();
        table.forEach((prop, entry) -> result.put(prop, entry.springName()));
        return result;
    }

    /**
     * The key generator props for these settings: every value that is set (and nothing else), durations in
     * milliseconds. A lease backend's values are emitted only when the backend is on the class path; a value set for
     * a backend that is not, or {@code snowkey.lease.registry} naming one, fails with the artifact to add.
     *
     * @param classLoader where the backends are looked for (the application context's)
     * @throws SnowKeyConfigurationException naming the {@code snowkey.*} property whose backend is missing
     */
    public static Properties toProps(final SnowKeyProperties properties, final ClassLoader classLoader) {
        return toProps(ENTRIES, "snowkey.lease.registry", properties.getLease().getRegistry(), properties, classLoader);
    }

    /**
     * The {@code SNOWKEY_SEGMENT} props for these settings, as {@link #toProps} builds the {@code IMPROVED_SNOWFLAKE}
     * ones: an allocator's values only when its backend is on the class path.
     *
     * @throws SnowKeyConfigurationException naming the {@code snowkey.segment.*} property whose backend is missing
     */
    public static Properties toSegmentProps(final SnowKeyProperties properties, final ClassLoader classLoader) {
        return toProps(SEGMENT_ENTRIES, "snowkey.segment.allocator", properties.getSegment().getAllocator(), properties, classLoader);
    }

    private static Properties toProps(final Map<String, Entry> table, final String backendProperty, final String backendName, final SnowKeyProperties properties,
                                      final ClassLoader classLoader) {
        KnownStore.byName(backendName).filter(each -> !present(each, classLoader)).ifPresent(each -> {
            throw missing(backendProperty, backendName, each);
        });
        Properties props = new Properties();
        table.forEach((prop, entry) -> {
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
    public static SnowKeyConfigurationException translate(final InvalidSettingException ex, final SnowKeyProperties properties) {
        return translate(ENTRIES, ex, properties);
    }

    /** As {@link #translate}, for a complaint of {@code SNOWKEY_SEGMENT} about its props: names the {@code snowkey.segment.*} property. */
    public static SnowKeyConfigurationException translateSegment(final InvalidSettingException ex, final SnowKeyProperties properties) {
        return translate(SEGMENT_ENTRIES, ex, properties);
    }

    private static SnowKeyConfigurationException translate(final Map<String, Entry> table, final InvalidSettingException ex, final SnowKeyProperties properties) {
        Entry entry = table.get(ex.property());
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
     * @param backend the lease backend the property belongs to, or null for the generator's and the shared lease properties
     */
    private record Entry(String springName, Function<SnowKeyProperties, Object> getter, KnownStore backend) {
    }
}
