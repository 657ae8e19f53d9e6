package org.snowkey.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.snowkey.spring.actuate.SnowKeyEndpoint;
import org.snowkey.spring.actuate.SnowKeyMetrics;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * When each part of the auto-configuration switches on, with SnowKey's auto-configurations loaded from its
 * registration files as an application loads them. Without lease settings the bean runs on static worker id 0.
 */
@ExtendWith(OutputCaptureExtension.class)
class SnowKeyConditionsTest {

    private static final String HEALTH_BEAN = "snowkeyHealthIndicator";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(SpringBootGeneration.snowKey())
            .withPropertyValues("management.endpoints.web.exposure.include=snowkey");

    @Test
    void everythingIsThereByDefault(final CapturedOutput output) {
        runner.run(context -> {
            assertThat(context).hasSingleBean(SnowKeyIdGenerator.class).hasBean(HEALTH_BEAN)
                    .hasSingleBean(SnowKeyEndpoint.class).hasSingleBean(SnowKeyMetrics.class)
                    .hasSingleBean(ShardingSphereDriverUrlRecorder.class);
            assertThat(context.getBean(SnowKeyIdGenerator.class).leaseStatus().workerId()).isZero();
            // One indicator, of this Boot generation's health API.
            String indicator = context.getBean(HEALTH_BEAN).getClass().getName();
            assertThat(indicator).isEqualTo(SpringBootVersion.getVersion().startsWith("3.") ? "org.snowkey.spring.actuate.SnowKeyHealthIndicator"
                    : "org.snowkey.spring.boot4.SnowKeyBoot4HealthIndicator");
        });
        assertThat(output).doesNotContain("No 'snowkey' health component");
    }

    @Test
    void disabledLeavesNothing() {
        runner.withPropertyValues("snowkey.enabled=false").run(context -> assertThat(context).doesNotHaveBean(SnowKeyIdGenerator.class)
                .doesNotHaveBean(HEALTH_BEAN).doesNotHaveBean(SnowKeyEndpoint.class).doesNotHaveBean(SnowKeyMetrics.class)
                .doesNotHaveBean(DataSourcesDependOnSnowKey.class).doesNotHaveBean(MissingHealthIndicatorWarning.class));
    }

    @Test
    void withoutActuatorThereIsNoHealthOrEndpointAndNothingToWarnAbout(final CapturedOutput output) {
        runner.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate", "org.springframework.boot.health")).run(context -> assertThat(context)
                .hasSingleBean(SnowKeyIdGenerator.class).doesNotHaveBean(HEALTH_BEAN).doesNotHaveBean(SnowKeyEndpoint.class)
                .doesNotHaveBean(MissingHealthIndicatorWarning.class));
        assertThat(output).doesNotContain("No 'snowkey' health component");
    }

    @Test
    void actuatorWithoutAHealthApiSaysWhyAtStartUp(final CapturedOutput output) {
        runner.withClassLoader(new FilteredClassLoader(SpringBootGeneration.healthPackages())).run(context -> assertThat(context)
                .hasSingleBean(SnowKeyIdGenerator.class).hasSingleBean(SnowKeyEndpoint.class).doesNotHaveBean(HEALTH_BEAN));
        assertThat(output).contains("No 'snowkey' health component in /actuator/health: Spring Boot")
                .contains("has neither health API SnowKey supports");
    }

    @Test
    void aMissingHealthConfigurationIsNamedAtStartUp(final CapturedOutput output) {
        // As if the application had excluded SnowKey's health auto-configuration of its Boot generation.
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SnowKeyAutoConfiguration.class, SnowKeyActuatorAutoConfiguration.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(HEALTH_BEAN));
        assertThat(output).contains("No 'snowkey' health component in /actuator/health").contains("did not apply");
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
    void healthIndicatorSwitchedOffOnPurposeIsNotWarnedAbout(final CapturedOutput output) {
        runner.withPropertyValues("management.health.snowkey.enabled=false", "management.endpoint.snowkey.access=NONE")
                .run(context -> assertThat(context).hasSingleBean(SnowKeyIdGenerator.class).doesNotHaveBean(HEALTH_BEAN)
                        .doesNotHaveBean(SnowKeyEndpoint.class));
        assertThat(output).doesNotContain("No 'snowkey' health component");
    }

    @Test
    void endpointNeedsExposure() {
        new ApplicationContextRunner().withConfiguration(SpringBootGeneration.snowKey())
                .run(context -> assertThat(context).hasBean(HEALTH_BEAN).doesNotHaveBean(SnowKeyEndpoint.class));
    }

    @Test
    void applicationBeanReplacesTheGenerator() {
        runner.withBean("myGenerator", SnowKeyIdGenerator.class, () -> SnowKeyAutoConfiguration.start(org.snowkey.keygen.runtime.SnowflakeRuntime.get(),
                org.snowkey.keygen.runtime.SnowflakePlanner.get(), new SnowKeyProperties(), getClass().getClassLoader())).run(context -> assertThat(context).hasSingleBean(SnowKeyIdGenerator.class).hasBean("myGenerator"));
    }

    @Test
    void metersReachSpringBootsRegistry() {
        runner.withConfiguration(SpringBootGeneration.metrics()).run(context -> {
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
