package org.snowkey.spring.boot4;

import org.snowkey.spring.SnowKeyIdGenerator;
import org.snowkey.spring.actuate.SnowKeyHealth;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * {@code snowkey} on Spring Boot 4 ({@code org.springframework.boot.health.contributor}); it reports exactly what the
 * Spring Boot 3 indicator does, see {@link SnowKeyHealth}.
 */
public class SnowKeyBoot4HealthIndicator extends AbstractHealthIndicator {

    private final SnowKeyIdGenerator generator;

    public SnowKeyBoot4HealthIndicator(final SnowKeyIdGenerator generator) {
        super("SnowKey health check failed");
        this.generator = generator;
    }

    @Override
    protected void doHealthCheck(final Health.Builder builder) {
        SnowKeyHealth health = SnowKeyHealth.of(generator, System.currentTimeMillis());
        (health.up() ? builder.up() : builder.down()).withDetails(health.details());
    }
}
