package org.snowkey.spring.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.config.SequenceScope;

/**
 * The one table between {@code snowkey.*} properties and key generator props: used to build the props, and to say
 * which {@code snowkey.*} property an {@link InvalidSettingException} of the key generator is about.
 */
public final class SnowKeyPropertyMapping {

    private static final String MESSAGE_PREFIX = "Invalid SnowKey property '";

    /** Key generator prop to its {@code snowkey.*} property, in the order of the configuration reference. */
    private static final Map<String, Entry> ENTRIES = new LinkedHashMap<>();

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
        // The registry adapter's props: spelled out here because the adapter is an optional jar.
        add("zookeeper-server-lists", "snowkey.zookeeper.server-lists", p -> p.getZookeeper().getServerLists());
        add("zookeeper-namespace", "snowkey.zookeeper.namespace", p -> p.getZookeeper().getNamespace());
        add("zookeeper-digest", "snowkey.zookeeper.digest", p -> p.getZookeeper().getDigest());
        add("jdbc-url", "snowkey.jdbc.url", p -> p.getJdbc().getUrl());
        add("jdbc-username", "snowkey.jdbc.username", p -> p.getJdbc().getUsername());
        add("jdbc-password", "snowkey.jdbc.password", p -> p.getJdbc().getPassword());
        add("jdbc-table", "snowkey.jdbc.table", p -> p.getJdbc().getTable());
        add("jdbc-create-table", "snowkey.jdbc.create-table", p -> p.getJdbc().isCreateTable());
    }

    private SnowKeyPropertyMapping() {
    }

    private static void add(final String prop, final String springName, final Function<SnowKeyProperties, Object> getter) {
        ENTRIES.put(prop, new Entry(springName, getter));
    }

    /** Key generator prop names to {@code snowkey.*} names. */
    public static Map<String, String> names() {
        Map<String, String> result = new LinkedHashMap<>();
        ENTRIES.forEach((prop, entry) -> result.put(prop, entry.springName()));
        return result;
    }

    /** The key generator props for these settings: every value that is set, durations in milliseconds. */
    public static Properties toProps(final SnowKeyProperties properties) {
        Properties props = new Properties();
        ENTRIES.forEach((prop, entry) -> {
            Object value = entry.getter().apply(properties);
            if (value != null && !(value instanceof String text && text.isBlank())) {
                props.setProperty(prop, propValue(value));
            }
        });
        return props;
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
     * 'snowkey.lease.duration' = '500ms': expected ... (key generator prop 'lease-duration-milliseconds' = '500')".
     */
    public static SnowKeyConfigurationException translate(final InvalidSettingException ex, final SnowKeyProperties properties) {
        Entry entry = ENTRIES.get(ex.property());
        if (entry == null) {
            return new SnowKeyConfigurationException(ex.property(), ex.getMessage(), ex);
        }
        String message = ex.getMessage();
        String prefix = MESSAGE_PREFIX + ex.property() + "' = '";
        int valueEnd = message.startsWith(prefix) ? message.indexOf("': ", prefix.length()) : -1;
        if (valueEnd < 0) {
            return new SnowKeyConfigurationException(entry.springName(), message.replace("'" + ex.property() + "'", "'" + entry.springName() + "'"), ex);
        }
        // The plugin's value is already redacted where it must be (passwords, URL credentials); durations read better as Spring wrote them.
        String pluginValue = message.substring(prefix.length(), valueEnd);
        String allowed = message.substring(valueEnd + 3);
        Object springValue = entry.getter().apply(properties);
        String shown = springValue instanceof Duration duration ? duration.toMillis() + "ms" : pluginValue;
        return new SnowKeyConfigurationException(entry.springName(), MESSAGE_PREFIX + entry.springName() + "' = '" + shown + "': " + allowed
                + " (key generator prop '" + ex.property() + "' = '" + pluginValue + "')", ex);
    }

    private record Entry(String springName, Function<SnowKeyProperties, Object> getter) {
    }
}
