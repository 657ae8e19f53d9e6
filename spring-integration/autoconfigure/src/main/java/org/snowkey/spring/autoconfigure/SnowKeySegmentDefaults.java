package org.snowkey.spring.autoconfigure;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.segment.runtime.SegmentGeneratorSettings;
import org.snowkey.keygen.segment.runtime.SegmentPlan;
import org.snowkey.keygen.segment.runtime.SegmentPlanner;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.keygen.shardingsphere.PlansWithoutMode;
import org.snowkey.spring.SnowKeySegments;

/**
 * The {@code snowkey.segment.*} settings, validated once at start-up and published as the defaults of every
 * {@code SNOWKEY_SEGMENT} key generator of the JVM. A bean of its own, apart from {@link SnowKeySegments}: the defaults
 * apply to YAML key generators even when no allocator is set here (ShardingSphere Cluster mode brings one), and they
 * must be in place before any DataSource starts ({@link DataSourcesDependOnSnowKey}).
 */
public final class SnowKeySegmentDefaults {

    private final SnowKeyProperties properties;

    private final SegmentGeneratorSettings settings;

    private SnowKeySegmentDefaults(final SnowKeyProperties properties, final SegmentGeneratorSettings settings) {
        this.properties = properties;
        this.settings = settings;
    }

    /**
     * Parses the settings and publishes them ({@link SnowKeyPropertyMapping#publish}, as the snowflake's are);
     * invalid ones fail naming the {@code snowkey.segment.*} property and are not published.
     *
     * @param classLoader where the allocator backends are looked for (the application context's)
     * @throws SnowKeyConfigurationException naming the property
     */
    static SnowKeySegmentDefaults publish(final SegmentPlanner planner, final SnowKeyProperties properties, final ClassLoader classLoader) {
        return new SnowKeySegmentDefaults(properties, SnowKeyPropertyMapping.SEGMENT.publish(properties, classLoader, planner::parse, planner::setDefaults));
    }

    /** The settings as parsed: what a YAML key generator without props runs with. */
    public SegmentGeneratorSettings settings() {
        return settings;
    }

    /**
     * The {@link SnowKeySegments} bean over these settings. Its allocator is validated now (planned without a mode: the
     * allocator named here must be complete, {@code snowkey.segment.zookeeper.server-lists} is not taken from Cluster
     * mode). The bean plans with the Cluster mode ShardingSphere has shown in this JVM when there is one, at once or
     * else when first used (ShardingSphere may have started by then); if it must plan without, a YAML key generator
     * inheriting these settings that the mode would send to another store fails to bind naming both
     * ({@link PlansWithoutMode}).
     *
     * @throws SnowKeyConfigurationException naming the property at fault
     */
    SnowKeySegments open(final SegmentPlanner planner, final SegmentRuntime runtime) {
        SegmentPlan withoutMode = plan(planner, Optional.empty());
        Optional<ClusterRegistry> known = PlansWithoutMode.clusterRegistryOfThisJvm();
        if (known.isPresent()) {
            return opened(runtime, plan(planner, known));
        }
        AtomicReference<SnowKeySegments> bean = new AtomicReference<>();
        bean.set(SnowKeySegments.openOnFirstUse(runtime, () -> {
            Optional<ClusterRegistry> mode = PlansWithoutMode.clusterRegistryOfThisJvm();
            if (mode.isPresent()) {
                return plan(planner, mode);
            }
            PlansWithoutMode.segmentsPlanned(settings.props(), withoutMode.allocator().scopeKey(), "the SnowKeySegments bean", () -> !bean.get().isClosed());
            return withoutMode;
        }));
        return bean.get();
    }

    private SegmentPlan plan(final SegmentPlanner planner, final Optional<ClusterRegistry> mode) {
        try {
            return planner.plan(settings, mode);
        } catch (final InvalidSettingException ex) {
            throw SnowKeyPropertyMapping.SEGMENT.translate(ex, properties);
        }
    }

    private SnowKeySegments opened(final SegmentRuntime runtime, final SegmentPlan plan) {
        try {
            return SnowKeySegments.open(runtime, plan);
        } catch (final RuntimeException ex) {
            String property = "zookeeper".equals(settings.allocator()) ? "snowkey.segment.zookeeper.server-lists" : "snowkey.segment.jdbc.url";
            throw new SnowKeyConfigurationException(property, "SnowKey could not open the segment allocator (" + plan.allocator().scopeKey() + "): "
                    + ex.getMessage(), ex);
        }
    }
}
