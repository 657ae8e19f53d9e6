package org.snowkey.spring.actuate;

import org.snowkey.spring.SnowKeyIdGenerator;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * {@code snowkey} on Spring Boot 3 ({@code org.springframework.boot.actuate.health}); see {@link SnowKeyHealth} for
 * what it reports. Spring Boot 4 has its own twin in {@code snowkey-spring-boot4-autoconfigure}.
 */
public class SnowKeyHealthIndicator extends AbstractHealthIndicator {

    private final SnowKeyIdGenerator generator;

    public SnowKeyHealthIndicator(final SnowKeyIdGenerator generator) {
        super("SnowKey health check failed");
        this.generator = generator;
    }

    @Override
    protected void doHealthCheck(final Health.Builder builder) {
        SnowKeyHealth health = SnowKeyHealth.of(generator, System.currentTimeMillis());
        (health.up() ? builder.up() : builder.down()).withDetails(health.details());
    }
}
