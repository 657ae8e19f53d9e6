package org.snowkey.spring.autoconfigure;

import org.snowkey.spring.SnowKeyIdGenerator;
import org.snowkey.spring.actuate.SnowKeyEndpoint;
import org.snowkey.spring.actuate.SnowKeySanitizingFunction;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * Actuator, when the application has it: the {@code snowkey} endpoint, SnowKey's secrets masked in Spring's own
 * {@code env} and {@code configprops} endpoints, and a start-up warning when no
 * {@code snowkey} health indicator could be registered. The endpoint API is the same in Spring Boot 3 and 4; the
 * health API is not, so the indicator has one auto-configuration per generation ({@link SnowKeyHealthAutoConfiguration}
 * for Boot 3, {@code org.snowkey.spring.boot4.SnowKeyBoot4HealthAutoConfiguration} for Boot 4).
 */
@AutoConfiguration(after = SnowKeyAutoConfiguration.class)
@ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
@ConditionalOnBean(SnowKeyIdGenerator.class)
public class SnowKeyActuatorAutoConfiguration {

    @Bean
    @ConditionalOnAvailableEndpoint
    @ConditionalOnMissingBean
    public SnowKeyEndpoint snowKeyEndpoint(final SnowKeyIdGenerator generator) {
        return new SnowKeyEndpoint(generator);
    }

    /** Masks SnowKey's secrets in Spring's own env and configprops endpoints, whatever their show-values setting. */
    @Bean
    @ConditionalOnMissingBean
    public SnowKeySanitizingFunction snowKeySanitizingFunction() {
        return new SnowKeySanitizingFunction();
    }

    @Bean
    static MissingHealthIndicatorWarning snowKeyMissingHealthIndicatorWarning(final ApplicationContext context) {
        // The context's class loader decides which Boot generation's classes the application has.
        return new MissingHealthIndicatorWarning(context, context.getEnvironment(), context.getClassLoader());
    }
}
