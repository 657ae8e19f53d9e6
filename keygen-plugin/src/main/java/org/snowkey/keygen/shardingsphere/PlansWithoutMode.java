package org.snowkey.keygen.shardingsphere;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

import org.snowkey.keygen.lease.LeaseRequest.ClusterRegistry;

/**
 * Where the Spring beans ({@code SnowKeyIdGenerator}, {@code SnowKeySegments}) issue from when they had to plan before
 * ShardingSphere's mode was known in this JVM. YAML key generators that inherit the same settings learn the mode later,
 * and in Cluster mode a store the settings leave open (a ZooKeeper namespace, a registry) is taken from it: the bean and
 * the key generators would then count one table on two stores and repeat keys. Such a key generator fails to bind,
 * naming both stores, instead (docs/design.md, "Spring beans and Cluster mode").
 */
public final class PlansWithoutMode {

    private static final Map<Map<Object, Object>, Planned> WORKER_IDS = new ConcurrentHashMap<>();

    private static final Map<Map<Object, Object>, Planned> SEGMENTS = new ConcurrentHashMap<>();

    private PlansWithoutMode() {
    }

    /**
     * The one Cluster registry ShardingSphere contexts of this JVM have shown so far: a bean created after ShardingSphere
     * started plans with it, as the key generators did. Empty when none (or several, which no bean can choose among).
     */
    public static Optional<ClusterRegistry> clusterRegistryOfThisJvm() {
        List<ClusterRegistry> seen = ClusterRegistriesSeen.all();
        return seen.size() == 1 ? Optional.of(seen.get(0)) : Optional.empty();
    }

    /**
     * A bean leases worker ids without knowing the mode.
     *
     * @param settingsProps the props its settings were parsed from (the ones YAML key generators inherit)
     * @param store         where it leases (its scope key)
     * @param bean          the bean, for the message
     * @param inUse         false once the bean is closed: its plan then binds nobody
     */
    public static void workerIdsPlanned(final Map<Object, Object> settingsProps, final String store, final String bean, final BooleanSupplier inUse) {
        WORKER_IDS.put(Map.copyOf(settingsProps), new Planned(store, bean, inUse));
    }

    /** A bean takes segment ranges without knowing the mode; as {@link #workerIdsPlanned}. */
    public static void segmentsPlanned(final Map<Object, Object> settingsProps, final String store, final String bean, final BooleanSupplier inUse) {
        SEGMENTS.put(Map.copyOf(settingsProps), new Planned(store, bean, inUse));
    }

    /**
     * A key generator told the mode plans {@code store} from these settings.
     *
     * @throws IllegalStateException when a bean in use planned other settings-equal props on another store
     */
    static void checkWorkerIds(final Map<Object, Object> settingsProps, final String store, final String type) {
        check(WORKER_IDS, settingsProps, store, type, "leases worker ids from");
    }

    /** As {@link #checkWorkerIds}, for segment ranges. */
    static void checkSegments(final Map<Object, Object> settingsProps, final String store, final String type) {
        check(SEGMENTS, settingsProps, store, type, "takes ranges from");
    }

    private static void check(final Map<Map<Object, Object>, Planned> plans, final Map<Object, Object> settingsProps, final String store, final String type,
                              final String verb) {
        Planned planned = plans.get(settingsProps);
        if (planned == null || planned.store().equals(store)) {
            return;
        }
        if (!planned.inUse().getAsBoolean()) {
            plans.remove(settingsProps, planned);
            return;
        }
        throw new IllegalStateException("SnowKey: this " + type + " key generator inherits the Spring settings of " + planned.bean()
                + ", which was created before ShardingSphere's Cluster mode was known and " + verb + " " + planned.store() + "; with the mode, this key generator "
                + verb + " " + store + ". One table on two stores would repeat keys, so it does not start: name the store completely in the snowkey.* "
                + "properties (the ZooKeeper namespace of the mode, for instance), or give this key generator props of its own");
    }

    private record Planned(String store, String bean, BooleanSupplier inUse) {
    }
}
