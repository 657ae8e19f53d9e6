package org.snowkey.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.junit.jupiter.api.Test;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.snowkey.spring.actuate.SnowKeyEndpoint;
import org.snowkey.spring.actuate.SnowKeyHealthIndicator;
import org.snowkey.spring.actuate.SnowKeyMetrics;
import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** When each part of the auto-configuration switches on. Without lease settings the bean runs on static worker id 0. */
class SnowKeyConditionsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SnowKeyAutoConfiguration.class, SnowKeyActuatorAutoConfiguration.class,
                    SnowKeyMetricsAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=snowkey");

    @Test
    void everythingIsThereByDefault() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(SnowKeyIdGenerator.class).hasSingleBean(SnowKeyHealthIndicator.class)
                    .hasSingleBean(SnowKeyEndpoint.class).hasSingleBean(SnowKeyMetrics.class)
                    .hasSingleBean(ShardingSphereDriverUrlRecorder.class).hasBean("snowkeyHealthIndicator");
            assertThat(context.getBean(SnowKeyIdGenerator.class).leaseStatus().workerId()).isZero();
        });
    }

    @Test
    void disabledLeavesNothing() {
        runner.withPropertyValues("snowkey.enabled=false").run(context -> assertThat(context).doesNotHaveBean(SnowKeyIdGenerator.class)
                .doesNotHaveBean(SnowKeyHealthIndicator.class).doesNotHaveBean(SnowKeyEndpoint.class).doesNotHaveBean(SnowKeyMetrics.class)
                .doesNotHaveBean(DataSourcesDependOnSnowKey.class));
    }

    @Test
    void withoutActuatorThereIsNoHealthOrEndpoint() {
        runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class)).run(context -> assertThat(context)
                .hasSingleBean(SnowKeyIdGenerator.class).doesNotHaveBean(SnowKeyHealthIndicator.class).doesNotHaveBean(SnowKeyEndpoint.class));
    }

    @Test
    void withoutMicrometerThereAreNoMeters() {
        runner.withClassLoader(new FilteredClassLoader(MeterBinder.class)).run(context -> assertThat(context)
                .hasSingleBean(SnowKeyIdGenerator.class).doesNotHaveBean(SnowKeyMetrics.class));
    }

    @Test
    void withoutShardingSphereNothingWatchesItsDriver() {
        runner.withClassLoader(new FilteredClassLoader("org.apache.shardingsphere.driver")).run(context -> assertThat(context)
                .hasSingleBean(SnowKeyIdGenerator.class).doesNotHaveBean(ShardingSphereDriverUrlRecorder.class));
    }

    @Test
    void healthIndicatorAndEndpointCanBeSwitchedOff() {
        runner.withPropertyValues("management.health.snowkey.enabled=false", "management.endpoint.snowkey.access=NONE")
                .run(context -> assertThat(context).hasSingleBean(SnowKeyIdGenerator.class).doesNotHaveBean(SnowKeyHealthIndicator.class)
                        .doesNotHaveBean(SnowKeyEndpoint.class));
    }

    @Test
    void endpointNeedsExposure() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SnowKeyAutoConfiguration.class, SnowKeyActuatorAutoConfiguration.class))
                .run(context -> assertThat(context).hasSingleBean(SnowKeyHealthIndicator.class).doesNotHaveBean(SnowKeyEndpoint.class));
    }

    @Test
    void applicationBeanReplacesTheGenerator() {
        runner.withBean("myGenerator", SnowKeyIdGenerator.class, () -> SnowKeyAutoConfiguration.start(org.snowkey.keygen.runtime.SnowKeyRuntime.get(),
                new SnowKeyProperties())).run(context -> assertThat(context).hasSingleBean(SnowKeyIdGenerator.class).hasBean("myGenerator"));
    }

    @Test
    void metersReachSpringBootsRegistry() {
        runner.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
                CompositeMeterRegistryAutoConfiguration.class)).run(context -> {
                    context.getBean(SnowKeyIdGenerator.class).nextIds(3);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get("snowkey.ids.issued").functionCounter().count()).isGreaterThanOrEqualTo(3);
                    assertThat(registry.find("snowkey.time.cache").gauge()).isNotNull();
                    assertThat(registry.find("snowkey.lease.renewals").functionCounter()).isNotNull();
                    assertThat(registry.find("snowkey.lease.renewal.failures").functionCounter()).isNotNull();
                    assertThat(registry.find("snowkey.clock.back.waits").functionCounter()).isNotNull();
                });
    }
}
