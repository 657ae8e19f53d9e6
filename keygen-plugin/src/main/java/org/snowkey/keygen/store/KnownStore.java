package org.snowkey.keygen.store;

import java.util.Locale;
import java.util.Optional;

/**
 * The stores SnowKey ships (each one jar serving both the worker-id lease, {@code lease-registry}, and the segment
 * allocator, {@code segment-allocator}), known by name to the plugin even when their jar is absent, so that a missing
 * store is named as such (the artifact to add) instead of its props looking unknown. A store found through its
 * providers needs no entry here; these entries only word the failure when it is not found.
 */
public enum KnownStore {

    ZOOKEEPER("zookeeper", "ZooKeeper", "org.snowkey.lease.store.zookeeper.ZooKeeperLeaseProvider", "org.snowkey:snowkey-lease-zookeeper"),

    JDBC("jdbc", "JDBC", "org.snowkey.lease.store.jdbc.JdbcLeaseProvider", "org.snowkey:snowkey-lease-jdbc"),

    ETCD("etcd", "etcd", "org.snowkey.lease.store.etcd.EtcdLeaseProvider", "org.snowkey:snowkey-lease-etcd");

    /** The artifact that brings every store; with {@link #artifact()}, the only place messages take artifact names from. */
    public static final String ARTIFACT = "org.snowkey:snowkey-registry-adapter";

    private final String storeName;

    private final String displayName;

    private final String probeClass;

    private final String artifact;

    KnownStore(final String storeName, final String displayName, final String probeClass, final String artifact) {
        this.storeName = storeName;
        this.displayName = displayName;
        this.probeClass = probeClass;
        this.artifact = artifact;
    }

    /** The artifact of this store alone. */
    public String artifact() {
        return artifact;
    }

    /** The {@code lease-registry} and {@code segment-allocator} value. */
    public String storeName() {
        return storeName;
    }

    /** A class of the store's jar, for class-presence checks (the Spring integration's). */
    public String probeClass() {
        return probeClass;
    }

    /** Every prop of this store starts with its name and a dash: {@code jdbc-url}, {@code zookeeper-digest}. */
    public String propPrefix() {
        return storeName + "-";
    }

    /** The store a {@code lease-registry} or {@code segment-allocator} value names, matched as the runtime matches providers (case ignored). */
    public static Optional<KnownStore> byName(final String name) {
        for (KnownStore each : values()) {
            if (each.storeName.equals(name == null ? null : name.trim().toLowerCase(Locale.ROOT))) {
                return Optional.of(each);
            }
        }
        return Optional.empty();
    }

    /** The store a prop belongs to by its name, if any. */
    public static Optional<KnownStore> byProp(final String prop) {
        for (KnownStore each : values()) {
            if (prop != null && prop.startsWith(each.propPrefix())) {
                return Optional.of(each);
            }
        }
        return Optional.empty();
    }

    /** Why this store cannot be used here: "the JDBC lease backend (artifact ...) is not on the class path; ...". */
    public String notOnClassPath() {
        return "the " + displayName + " lease backend (artifact " + artifact + ", or " + ARTIFACT + " for both backends) is not on the class path; "
                + "add it beside the SnowKey plugin (ShardingSphere-Proxy: into ext-lib with its libraries; Spring Boot: the snowkey starter brings it)";
    }
}
