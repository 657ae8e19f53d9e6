package org.snowkey.spring.autoconfigure;

import java.util.Optional;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.runtime.SnowflakePlan;
import org.snowkey.keygen.runtime.SnowflakePlanner;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.keygen.runtime.SnowflakeSettings;
import org.snowkey.keygen.shardingsphere.PlansWithoutMode;
import org.snowkey.keygen.segment.runtime.SegmentPlanner;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.snowkey.spring.SnowKeySegments;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * SnowKey in a Spring Boot application: {@code snowkey.*} become the defaults of every {@code IMPROVED_SNOWFLAKE}
 * key generator of the JVM, a {@link SnowKeyIdGenerator} bean shares their scope, the lease is acquired while the
 * context starts and released after the data sources have closed. Likewise {@code snowkey.segment.*} become the
 * defaults of every {@code SNOWKEY_SEGMENT} key generator, and with {@code snowkey.segment.allocator} set a
 * {@link SnowKeySegments} bean shares their scope.
 */
@AutoConfiguration
@ConditionalOnClass(SnowflakeRuntime.class)
@ConditionalOnProperty(prefix = "snowkey", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(SnowKeyProperties.class)
public class SnowKeyAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public SnowKeyIdGenerator snowKeyIdGenerator(final SnowKeyProperties properties, final ApplicationContext context) {
        return start(SnowflakeRuntime.get(), SnowflakePlanner.get(), properties, context.getClassLoader());
    }

    /**
     * Parses and plans the settings once, publishes them as the JVM's key generator defaults
     * ({@link SnowKeyPropertyMapping#publish}), then joins their scope. The bean plans with the Cluster mode
     * ShardingSphere has shown in this JVM; before any has, without it, and a YAML key generator inheriting these
     * settings that the mode would send to another store then fails to bind naming both ({@link PlansWithoutMode}).
     *
     * @param classLoader where the lease backends are looked for: a {@code snowkey.<backend>.*} property is emitted
     *                    only when its backend is there
     */
    static SnowKeyIdGenerator start(final SnowflakeRuntime runtime, final SnowflakePlanner planner, final SnowKeyProperties properties,
                                    final ClassLoader classLoader) {
        // A Cluster mode ShardingSphere already showed in this JVM: plan as the key generators inheriting these settings did.
        Optional<ClusterRegistry> mode = PlansWithoutMode.clusterRegistryOfThisJvm();
        Planned planned = SnowKeyPropertyMapping.SNOWFLAKE.publish(properties, classLoader, props -> {
            SnowflakeSettings settings = planner.parse(props);
            return new Planned(settings, planner.plan(settings, mode));
        }, planner::setDefaults);
        SnowflakePlan plan = planned.plan();
        try {
            SnowKeyIdGenerator generator = SnowKeyIdGenerator.open(runtime, plan);
            if (mode.isEmpty()) {
                PlansWithoutMode.workerIdsPlanned(planned.settings().props(), plan.scopeKey(), "the SnowKeyIdGenerator bean", () -> !generator.isClosed());
            }
            return generator;
        } catch (final InvalidSettingException ex) {
            throw SnowKeyPropertyMapping.SNOWFLAKE.translate(ex, properties);
        } catch (final RuntimeException ex) {
            throw new SnowKeyLeaseException("SnowKey could not obtain a worker id during start-up (scope " + plan.scopeKey() + "): " + ex.getMessage(), ex);
        }
    }

    private record Planned(SnowflakeSettings settings, SnowflakePlan plan) {
    }

    /** Always there, so that invalid {@code snowkey.segment.*} values fail start-up even where no allocator is set. */
    @Bean
    @ConditionalOnMissingBean
    public SnowKeySegmentDefaults snowKeySegmentDefaults(final SnowKeyProperties properties, final ApplicationContext context) {
        return SnowKeySegmentDefaults.publish(SegmentPlanner.get(), properties, context.getClassLoader());
    }

    /** Only with an allocator: applications that do not use segments get no bean, no pool and no client. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "snowkey.segment", name = "allocator")
    public SnowKeySegments snowKeySegments(final SnowKeySegmentDefaults defaults) {
        return defaults.open(SegmentPlanner.get(), SegmentRuntime.get());
    }

    @Bean
    static DataSourcesDependOnSnowKey snowKeyDataSourcesDependOnSnowKey() {
        return new DataSourcesDependOnSnowKey();
    }

    /** Closes the ShardingSphere data sources of {@code jdbc:shardingsphere:} URLs with the context. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = ShardingSphereDriverDataSources.DRIVER_CLASS)
    @ConditionalOnProperty(prefix = "snowkey", name = "close-shardingsphere-driver-data-sources", matchIfMissing = true)
    static class ShardingSphereDriverConfiguration {

        @Bean
        static ShardingSphereDriverUrlRecorder snowKeyShardingSphereDriverUrlRecorder() {
            return new ShardingSphereDriverUrlRecorder();
        }
    }
}
