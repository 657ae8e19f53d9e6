package org.snowkey.spring.boot4;

import org.snowkey.spring.SnowKeyIdGenerator;
import org.snowkey.spring.autoconfigure.SnowKeyAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code snowkey} health indicator on Spring Boot 4, whose health API lives in
 * {@code org.springframework.boot.health.contributor} (artifact {@code spring-boot-health}). On Spring Boot 3 those
 * classes are absent, this configuration does not apply, and {@code SnowKeyHealthAutoConfiguration} registers the
 * Boot 3 indicator under the same bean name.
 *
 * <p>The bean method sits in a nested class: Spring may introspect this class's methods on a Boot 3 classpath
 * (to match beans by type), and a method returning a Boot 4 type would fail there.
 */
@AutoConfiguration(after = SnowKeyAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
public class SnowKeyBoot4HealthAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class})
    @ConditionalOnBean(SnowKeyIdGenerator.class)
    static class Boot4HealthIndicatorConfiguration {

        @Bean
        @ConditionalOnEnabledHealthIndicator("snowkey")
        @ConditionalOnMissingBean(name = "snowkeyHealthIndicator")
        SnowKeyBoot4HealthIndicator snowkeyHealthIndicator(final SnowKeyIdGenerator generator) {
            return new SnowKeyBoot4HealthIndicator(generator);
        }
    }
}
