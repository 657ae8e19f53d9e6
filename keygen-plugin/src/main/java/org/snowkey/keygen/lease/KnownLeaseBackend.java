package org.snowkey.keygen.lease;

import java.util.Locale;
import java.util.Optional;

/**
 * The lease backends SnowKey ships, known by name to the plugin even when their jar is absent, so that a missing
 * backend is named as such (the artifact to add) instead of its props looking unknown. A backend found through
 * {@link WorkerLeaseProvider} needs no entry here; these entries only word the failure when it is not found.
 */
public enum KnownLeaseBackend {

    ZOOKEEPER("zookeeper", "ZooKeeper", "org.snowkey.lease.store.zookeeper.ZooKeeperLeaseProvider", "org.snowkey:snowkey-lease-zookeeper"),

    JDBC("jdbc", "JDBC", "org.snowkey.lease.store.jdbc.JdbcLeaseProvider", "org.snowkey:snowkey-lease-jdbc");

    /** The artifact that brings both backends; with {@link #artifact()}, the only place messages take artifact names from. */
    public static final String ARTIFACT = "org.snowkey:snowkey-registry-adapter";

    private final String registry;

    private final String displayName;

    private final String providerClass;

    private final String artifact;

    KnownLeaseBackend(final String registry, final String displayName, final String providerClass, final String artifact) {
        this.registry = registry;
        this.displayName = displayName;
        this.providerClass = providerClass;
        this.artifact = artifact;
    }

    /** The artifact of this backend alone. */
    public String artifact() {
        return artifact;
    }

    /** The {@code lease-registry} value. */
    public String registry() {
        return registry;
    }

    /** The backend's {@link WorkerLeaseProvider} class, for class-presence checks (the Spring integration's). */
    public String providerClass() {
        return providerClass;
    }

    /** Every prop of this backend starts with its registry name and a dash: {@code jdbc-url}, {@code zookeeper-digest}. */
    public String propPrefix() {
        return registry + "-";
    }

    /** The backend a {@code lease-registry} value names, matched as the runtime matches providers (case ignored). */
    public static Optional<KnownLeaseBackend> byRegistry(final String registry) {
        for (KnownLeaseBackend each : values()) {
            if (each.registry.equals(registry == null ? null : registry.trim().toLowerCase(Locale.ROOT))) {
                return Optional.of(each);
            }
        }
        return Optional.empty();
    }

    /** The backend a prop belongs to by its name, if any. */
    public static Optional<KnownLeaseBackend> byProp(final String prop) {
        for (KnownLeaseBackend each : values()) {
            if (prop != null && prop.startsWith(each.propPrefix())) {
                return Optional.of(each);
            }
        }
        return Optional.empty();
    }

    /** Why this backend cannot be used here: "the JDBC lease backend (artifact ...) is not on the class path; ...". */
    public String notOnClassPath() {
        return "the " + displayName + " lease backend (artifact " + artifact + ", or " + ARTIFACT + " for both backends) is not on the class path; "
                + "add it beside the SnowKey plugin (ShardingSphere-Proxy: into ext-lib with its libraries; Spring Boot: the snowkey starter brings it)";
    }
}
