package org.snowkey.keygen.runtime;

import java.util.Map;

import org.snowkey.keygen.config.GeneratorSettings;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.lease.LeaseBackendSettings;

/**
 * Every setting of one key generator (or of the Spring bean), parsed and validated once at start-up by
 * {@link SnowflakePlanner#parse} and handed on from there: planning, the lease backend and the binding read this value,
 * never the props again (docs/design.md, "Settings").
 *
 * @param generator the generator's own settings
 * @param registry the {@code lease-registry} value in lower case, or null when not set
 * @param lease the shared lease props, with their defaults where not set
 * @param backends the parsed settings of each lease backend that {@code lease-registry} names or whose props are set, by
 *                 registry name
 * @param props the props as parsed (unmodifiable), to name a prop in a later complaint
 */
public record SnowflakeSettings(GeneratorSettings generator, String registry, LeaseTerms lease, Map<String, LeaseBackendSettings> backends,
                              Map<Object, Object> props) {

    public SnowflakeSettings {
        backends = Map.copyOf(backends);
        props = Map.copyOf(props);
    }

    /** Without the props' values: they may hold a password, and a record's own toString would print them. */
    @Override
    public String toString() {
        return "SnowflakeSettings[generator=" + generator + ", registry=" + registry + ", lease=" + lease + ", backends=" + backends.keySet()
                + ", props set=" + new java.util.TreeSet<>(props.keySet().stream().map(String::valueOf).toList()) + "]";
    }
}
