package org.snowkey.keygen.segment.runtime;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.snowkey.keygen.config.InheritedDefaults;
import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.segment.SegmentPropertyNames;
import org.snowkey.keygen.store.KnownStore;
import org.snowkey.keygen.store.StoreCatalogue;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.segment.SegmentSettings;

/**
 * Turns {@code SNOWKEY_SEGMENT} props into settings ({@link #parse}, once, at start-up) and settings into a
 * {@link SegmentPlan} once ShardingSphere has said its mode ({@link #plan}); no I/O in either step
 * (docs/design.md, "Segment mode").
 */
public final class SegmentPlanner {

    /**
     * The planner of the JVM; static for the reason {@code SnowflakePlanner}'s is: ShardingSphere builds algorithms with a
     * no-argument constructor, so the backends on the class path and the Spring defaults reach them from here.
     */
    private static final SegmentPlanner INSTANCE = new SegmentPlanner(StoreCatalogue.discover(SegmentAllocatorProvider.class, SegmentAllocatorProvider::name));

    private final StoreCatalogue<SegmentAllocatorProvider> providers;

    private final InheritedDefaults defaults = new InheritedDefaults();

    public SegmentPlanner(final Map<String, SegmentAllocatorProvider> providers) {
        this.providers = new StoreCatalogue<>(providers, SegmentAllocatorProvider::propertyNames, "allocator");
    }

    public static SegmentPlanner get() {
        return INSTANCE;
    }

    /** The allocator backends on the class path, by name. */
    public Set<String> allocators() {
        return providers.names();
    }

    /** Props every {@code SNOWKEY_SEGMENT} of this JVM inherits where its own are silent (the Spring integration sets them). */
    public void setDefaults(final Properties props) {
        defaults.set(props);
    }

    /** {@link #parse} over the JVM's defaults ({@link #setDefaults}). */
    public SegmentGeneratorSettings parseInheritingDefaults(final Properties props) {
        return defaults.parse(props, this::parse);
    }

    /**
     * Parses and validates the props: the segment props, and the props of the allocator named. Rejects unknown props,
     * props of a backend that is not on the class path (naming its artifact) and a backend's props that cannot apply.
     *
     * @throws InvalidSettingException naming the prop and the value
     */
    public SegmentGeneratorSettings parse(final Properties props) {
        Properties copy = new Properties();
        if (props != null) {
            copy.putAll(props);
        }
        PropertyReader reader = new PropertyReader(copy);
        String allocatorText = reader.text(SegmentPropertyNames.ALLOCATOR);
        String allocator = allocatorText == null ? null : allocatorText.toLowerCase(Locale.ROOT);
        if (allocator != null) {
            provider(allocator);
        }
        rejectUnknownAndMisplaced(copy, allocator);
        SegmentSettings sequence = SegmentSettings.parse(reader);
        Map<String, SegmentBackendSettings> backends = new TreeMap<>();
        if (allocator != null) {
            backends.put(allocator, providers.get(allocator).parse(reader, sequence));
        }
        return new SegmentGeneratorSettings(allocator, SegmentKey.parse(reader), sequence, SegmentPropsParser.startValues(reader), backends, copy);
    }

    private void rejectUnknownAndMisplaced(final Properties props, final String allocator) {
        // Every key, not stringPropertyNames(): that one skips entries whose value is not a String, so a misspelt prop
        // set to a boxed number or flag (ShardingSphere's Java API, Properties.put) would slip through unnoticed.
        for (String name : new TreeSet<>(props.keySet().stream().map(String::valueOf).toList())) {
            if (SegmentPropertyNames.NAMES.contains(name)) {
                continue;
            }
            providers.rejectIfOfAbsentStore(name, props.get(name));
            Optional<String> owner = providers.owner(name);
            if (owner.isEmpty()) {
                throw InvalidSettingException.unknown(name, props.get(name), "unknown property of SNOWKEY_SEGMENT; known properties are " + knownProps());
            }
            if (allocator == null) {
                throw new InvalidSettingException(name, props.get(name), "cannot apply: it configures the " + owner.get() + " allocator and "
                        + SegmentPropertyNames.ALLOCATOR + " is not set; set " + SegmentPropertyNames.ALLOCATOR + " = " + owner.get() + ", or remove " + name);
            }
            if (!owner.get().equals(allocator)) {
                throw providers.cannotApply(name, props.get(name), owner.get(), SegmentPropertyNames.ALLOCATOR + " = '" + allocator + "'");
            }
        }
    }

    private Set<String> knownProps() {
        TreeSet<String> known = new TreeSet<>(SegmentPropertyNames.NAMES);
        known.addAll(providers.allPropertyNames());
        return known;
    }

    /**
     * The plan in the mode ShardingSphere runs in: the allocator named, or in Cluster mode the mode's registry when it
     * has a backend here. Standalone without {@code segment-allocator} fails: nothing is shared between instances, and
     * SnowKey never issues keys from a range nobody else can see.
     *
     * @param cluster ShardingSphere's Cluster mode repository, when there is one
     * @throws InvalidSettingException when no allocator is named or implied, or the backend lacks a required value
     */
    public SegmentPlan plan(final SegmentGeneratorSettings settings, final Optional<ClusterRegistry> cluster) {
        String allocator = settings.allocator();
        SegmentBackendSettings backend;
        if (allocator != null) {
            backend = settings.backends().get(allocator);
        } else if (cluster.isPresent() && providers.get(cluster.get().type()) != null) {
            allocator = cluster.get().type().toLowerCase(Locale.ROOT);
            backend = providers.get(allocator).parse(new PropertyReader(new Properties()), settings.sequence());
        } else {
            String why = cluster.map(each -> "ShardingSphere runs in Cluster mode with a " + each.type() + " repository, and SnowKey has no segment allocator for it ("
                    + providers.whyAbsent(each.type()) + ")")
                    .orElse("ShardingSphere runs in Standalone mode, so nothing tells SnowKey where ranges are shared between instances");
            throw new InvalidSettingException(SegmentPropertyNames.ALLOCATOR, null, why + "; set " + SegmentPropertyNames.ALLOCATOR + " to one of " + providers.names()
                    + (providers.names().isEmpty() ? " (add " + KnownStore.ARTIFACT + ")" : "") + " with its props");
        }
        PreparedAllocator prepared = providers.get(allocator).prepare(backend, cluster);
        return new SegmentPlan(prepared, settings.sequence(), settings.starts(), settings.segmentKey());
    }

    private SegmentAllocatorProvider provider(final String allocator) {
        return providers.require(SegmentPropertyNames.ALLOCATOR, allocator, () -> "no such allocator; available: " + providers.names() + ", and with " + KnownStore.ARTIFACT
                + " " + java.util.Arrays.stream(KnownStore.values()).map(KnownStore::storeName).toList());
    }
}
