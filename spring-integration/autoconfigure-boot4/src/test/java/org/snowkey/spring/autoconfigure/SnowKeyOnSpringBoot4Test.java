package org.snowkey.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.snowkey.spring.boot4.SnowKeyBoot4HealthIndicator;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** What only Spring Boot 4 shows; the shared auto-configuration tests run here too, on this module's Boot 4 classpath. */
@ExtendWith(OutputCaptureExtension.class)
class SnowKeyOnSpringBoot4Test {

    @Test
    void theseTestsRunOnSpringBoot4WithTheBoot4Indicator() {
        assertThat(SpringBootVersion.getVersion()).startsWith("4.");
        new ApplicationContextRunner().withConfiguration(SpringBootGeneration.snowKey())
                .run(context -> assertThat(context).getBean("snowkeyHealthIndicator").isInstanceOf(SnowKeyBoot4HealthIndicator.class));
    }

    @Test
    void withoutSnowKeysBoot4JarStartUpSaysWhichToAdd(final CapturedOutput output) {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SnowKeyAutoConfiguration.class, SnowKeyActuatorAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader("org.snowkey.spring.boot4"))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("snowkeyHealthIndicator"));
        assertThat(output).contains("No 'snowkey' health component in /actuator/health: Spring Boot " + SpringBootVersion.getVersion())
                .contains("add it (org.snowkey:snowkey-spring-boot-starter brings it)");
    }
}
