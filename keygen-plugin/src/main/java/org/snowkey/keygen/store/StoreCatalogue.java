package org.snowkey.keygen.store;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

import org.snowkey.keygen.config.InvalidSettingException;

/**
 * The store backends one generator found on the class path (the worker-id lease's or the segment allocator's), by
 * lower-case name, and the rules both planners apply to them alike: a backend named is looked up case-insensitively, a
 * prop of a store SnowKey ships but that is absent is refused naming the artifact to add (instead of looking unknown),
 * and a prop of a backend that is not the one in use is refused instead of ignored. What each generator allows beside
 * that stays with its planner.
 *
 * @param <P> the provider type the backends are found by
 */
public final class StoreCatalogue<P> {

    /** Sorted, so that messages list the backends in one order. */
    private final SortedMap<String, P> backends;

    private final Function<P, Set<String>> propertyNamesOf;

    /** What messages call one backend: "lease backend", "allocator". */
    private final String kind;

    /** The props of every backend, found once: the backends do not change after discovery. */
    private final SortedSet<String> allPropertyNames;

    /**
     * @param backends        the backends by name (case ignored)
     * @param propertyNamesOf the props a backend reads, beside those its generator shares
     * @param kind            what messages call one backend
     */
    public StoreCatalogue(final Map<String, P> backends, final Function<P, Set<String>> propertyNamesOf, final String kind) {
        TreeMap<String, P> byName = new TreeMap<>();
        backends.forEach((name, backend) -> byName.put(name.toLowerCase(Locale.ROOT), backend));
        this.backends = Collections.unmodifiableSortedMap(byName);
        this.propertyNamesOf = propertyNamesOf;
        this.kind = kind;
        TreeSet<String> names = new TreeSet<>();
        this.backends.values().forEach(each -> names.addAll(propertyNamesOf.apply(each)));
        this.allPropertyNames = Collections.unmodifiableSortedSet(names);
    }

    /**
     * The backends that declare themselves in {@code META-INF/services}, by the name {@code nameOf} gives them. Loaded
     * through the provider type's class loader: the plugin jar's, which sees the store jars placed beside it.
     */
    public static <P> Map<String, P> discover(final Class<P> type, final Function<P, String> nameOf) {
        Map<String, P> found = new TreeMap<>();
        for (P each : ServiceLoader.load(type, type.getClassLoader())) {
            found.put(nameOf.apply(each).toLowerCase(Locale.ROOT), each);
        }
        return found;
    }

    /** The backends by lower-case name, in name order. */
    public SortedMap<String, P> byName() {
        return backends;
    }

    /** The names of the backends, in order; as a message shows them: {@code [jdbc, zookeeper]}. */
    public Set<String> names() {
        return backends.keySet();
    }

    /** The backend of this name (case ignored), or null when it is not on the class path. */
    public P get(final String name) {
        return backends.get(name.toLowerCase(Locale.ROOT));
    }

    /** The props of every backend here, sorted. */
    public SortedSet<String> allPropertyNames() {
        return allPropertyNames;
    }

    /** The first backend, by name, that reads this prop. */
    public Optional<String> owner(final String prop) {
        return backends.entrySet().stream().filter(each -> propertyNamesOf.apply(each.getValue()).contains(prop)).map(Map.Entry::getKey).findFirst();
    }

    /**
     * The backend {@code prop} names.
     *
     * @param unknown the message when SnowKey ships no store of this name either
     * @throws InvalidSettingException naming {@code prop} and {@code name}: the artifact to add when SnowKey ships the
     *                                 store, else {@code unknown}
     */
    public P require(final String prop, final String name, final Supplier<String> unknown) {
        P backend = get(name);
        if (backend == null) {
            throw new InvalidSettingException(prop, name, KnownStore.byName(name).map(KnownStore::notOnClassPath).orElseGet(unknown));
        }
        return backend;
    }

    /** Why no backend of this name is here: the artifact to add when SnowKey ships the store, else the backends that are. */
    public String whyAbsent(final String name) {
        return KnownStore.byName(name).map(KnownStore::notOnClassPath).orElse("available: " + names());
    }

    /**
     * Refuses a prop of a store SnowKey ships but that is not on the class path: said so, rather than "unknown property".
     *
     * @throws InvalidSettingException naming the prop, its value and the artifact to add
     */
    public void rejectIfOfAbsentStore(final String prop, final Object value) {
        Optional<KnownStore> store = KnownStore.byProp(prop);
        if (store.isPresent() && !backends.containsKey(store.get().storeName())) {
            throw new InvalidSettingException(prop, value, store.get().notOnClassPath());
        }
    }

    /** A prop of {@code owner} set while another backend is in use ({@code because}): it would be ignored, so it is refused. */
    public InvalidSettingException cannotApply(final String prop, final Object value, final String owner, final String because) {
        return new InvalidSettingException(prop, value, "cannot apply: it configures the " + owner + " " + kind + ", and " + because + "; remove " + prop);
    }
}
