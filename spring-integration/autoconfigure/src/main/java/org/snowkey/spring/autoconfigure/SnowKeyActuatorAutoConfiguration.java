package org.snowkey.spring.autoconfigure;

import org.snowkey.spring.SnowKeyIdGenerator;
import org.snowkey.spring.actuate.SnowKeyEndpoint;
import org.snowkey.spring.actuate.SnowKeyHealthIndicator;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** Actuator, when the application has it: the {@code snowkey} health indicator and the {@code snowkey} endpoint. */
@AutoConfiguration(after = SnowKeyAutoConfiguration.class)
@ConditionalOnClass({HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class})
@ConditionalOnBean(SnowKeyIdGenerator.class)
public class SnowKeyActuatorAutoConfiguration {

    @Bean
    @ConditionalOnEnabledHealthIndicator("snowkey")
    @ConditionalOnMissingBean(name = "snowkeyHealthIndicator")
    public SnowKeyHealthIndicator snowkeyHealthIndicator(final SnowKeyIdGenerator generator) {
        return new SnowKeyHealthIndicator(generator);
    }

    @Bean
    @ConditionalOnAvailableEndpoint
    @ConditionalOnMissingBean
    public SnowKeyEndpoint snowKeyEndpoint(final SnowKeyIdGenerator generator) {
        return new SnowKeyEndpoint(generator);
    }
}
