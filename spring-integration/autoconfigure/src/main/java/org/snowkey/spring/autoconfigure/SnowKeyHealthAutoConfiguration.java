package org.snowkey.spring.autoconfigure;

import org.snowkey.spring.SnowKeyIdGenerator;
import org.snowkey.spring.actuate.SnowKeyHealthIndicator;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code snowkey} health indicator on Spring Boot 3 (health API in {@code org.springframework.boot.actuate.health}).
 * Spring Boot 4 moved that API, so there this configuration does not apply and
 * {@code org.snowkey.spring.boot4.SnowKeyBoot4HealthAutoConfiguration} registers the indicator instead.
 *
 * <p>The bean method sits in a nested class: Spring may introspect this class's methods on a Boot 4 classpath
 * (to match beans by type), and a method returning a Boot 3 type would fail there.
 */
@AutoConfiguration(after = SnowKeyAutoConfiguration.class)
@ConditionalOnClass(name = MissingHealthIndicatorWarning.BOOT3_HEALTH_API)
public class SnowKeyHealthAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class})
    @ConditionalOnBean(SnowKeyIdGenerator.class)
    static class Boot3HealthIndicatorConfiguration {

        @Bean
        @ConditionalOnEnabledHealthIndicator("snowkey")
        @ConditionalOnMissingBean(name = MissingHealthIndicatorWarning.BEAN_NAME)
        SnowKeyHealthIndicator snowkeyHealthIndicator(final SnowKeyIdGenerator generator) {
            return new SnowKeyHealthIndicator(generator);
        }
    }
}
