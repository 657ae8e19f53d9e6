package org.snowkey.keygen.shardingsphere;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.segment.SegmentPropertyNames;

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

    /**
     * Props of an {@code IMPROVED_SNOWFLAKE} that never decide where its worker id is leased (the scope key is registry,
     * store and pool): a key generator that sets some of them and inherits every store prop from the bean still leases
     * where the bean's settings say. Plans are compared without them; comparing every prop made one
     * {@code sequence-scope: global} of its own skip the check, and the key generator and the bean leased from two pools.
     */
    private static final Set<String> NOT_DECIDING_WORKER_ID_STORE = without(PropertyNames.GENERATOR, PropertyNames.WORKER_ID);

    /** Props of a {@code SNOWKEY_SEGMENT} that never decide its allocator's store (sizing, keys, start values), as above. */
    private static final Set<String> NOT_DECIDING_SEGMENT_STORE = without(SegmentPropertyNames.NAMES, SegmentPropertyNames.ALLOCATOR);

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
        WORKER_IDS.put(storeProps(settingsProps, NOT_DECIDING_WORKER_ID_STORE), new Planned(store, bean, inUse));
    }

    /** A bean takes segment ranges without knowing the mode; as {@link #workerIdsPlanned}. */
    public static void segmentsPlanned(final Map<Object, Object> settingsProps, final String store, final String bean, final BooleanSupplier inUse) {
        SEGMENTS.put(storeProps(settingsProps, NOT_DECIDING_SEGMENT_STORE), new Planned(store, bean, inUse));
    }

    /**
     * A key generator told the mode plans {@code store} from these settings.
     *
     * @throws IllegalStateException when a bean in use planned other settings-equal props on another store
     */
    static void checkWorkerIds(final Map<Object, Object> settingsProps, final String store, final String type) {
        checkWorkerIds(settingsProps, store, null, type);
    }

    /**
     * A key generator told the mode plans {@code store} from these settings, and would plan {@code storeWithoutMode}
     * without it (null when it cannot plan without the mode).
     *
     * <p>A bean in use that planned the store-deciding props, or planned {@code storeWithoutMode} itself, and issues
     * from another store than {@code store}, fails the key generator. The second match catches what props compare
     * unequal although they reach one store: another spelling ({@code ZooKeeper}), white space, a default made
     * explicit, a lease prop that decides no store (duration, timeout, instance id).
     *
     * @throws IllegalStateException naming both stores
     */
    static void checkWorkerIds(final Map<Object, Object> settingsProps, final String store, final String storeWithoutMode, final String type) {
        check(WORKER_IDS, storeProps(settingsProps, NOT_DECIDING_WORKER_ID_STORE), store, storeWithoutMode, type, "leases worker ids from");
    }

    /** As {@link #checkWorkerIds}, for segment ranges. */
    static void checkSegments(final Map<Object, Object> settingsProps, final String store, final String type) {
        checkSegments(settingsProps, store, null, type);
    }

    /** As {@link #checkWorkerIds}, for segment ranges. */
    static void checkSegments(final Map<Object, Object> settingsProps, final String store, final String storeWithoutMode, final String type) {
        check(SEGMENTS, storeProps(settingsProps, NOT_DECIDING_SEGMENT_STORE), store, storeWithoutMode, type, "takes ranges from");
    }

    private static void check(final Map<Map<Object, Object>, Planned> plans, final Map<Object, Object> settingsProps, final String store,
                              final String storeWithoutMode, final String type, final String verb) {
        for (Map.Entry<Map<Object, Object>, Planned> each : plans.entrySet()) {
            Planned planned = each.getValue();
            boolean inherits = each.getKey().equals(settingsProps) || planned.store().equals(storeWithoutMode);
            if (!inherits || planned.store().equals(store)) {
                continue;
            }
            if (!planned.inUse().getAsBoolean()) {
                plans.remove(each.getKey(), planned);
                continue;
            }
            throw new IllegalStateException("SnowKey: this " + type + " key generator inherits the Spring settings of " + planned.bean()
                    + ", which was created before ShardingSphere's Cluster mode was known and " + verb + " " + planned.store() + "; with the mode, this key generator "
                    + verb + " " + store + ". One table on two stores would repeat keys, so it does not start: name the store completely in the snowkey.* "
                    + "properties (the ZooKeeper namespace of the mode, for instance), or give this key generator a store of its own (its own lease-pool or allocator props)");
        }
    }

    /** The props that may decide the store: all but {@code notDeciding}. */
    private static Map<Object, Object> storeProps(final Map<Object, Object> props, final Set<String> notDeciding) {
        Map<Object, Object> result = new HashMap<>(props);
        result.keySet().removeIf(key -> notDeciding.contains(String.valueOf(key)));
        return Map.copyOf(result);
    }

    private static Set<String> without(final Set<String> names, final String kept) {
        Set<String> result = new HashSet<>(names);
        result.remove(kept);
        return Set.copyOf(result);
    }

    private record Planned(String store, String bean, BooleanSupplier inUse) {
    }
}
