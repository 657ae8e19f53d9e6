package org.snowkey.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The {@code snowkey} health component through Spring Boot's own health API for a worker id without a lease: fixed
 * with {@code snowkey.worker-id}, and the lease-free default (worker 0); a leased one is in
 * {@link SnowKeyLeaseLifecycleTest}. Spring Boot rejects null details by logging a stack trace and reporting DOWN,
 * so each case also checks that a health call logs nothing.
 */
@ExtendWith(OutputCaptureExtension.class)
class SnowKeyHealthTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(SpringBootGeneration.snowKey());

    @Test
    void staticWorkerIdIsUpWithWhatAppliesToIt(final CapturedOutput output) {
        runner.withPropertyValues("snowkey.worker-id=5").run(context -> {
            SpringBootGeneration.Health health = healthLoggingNoFailure(context, output);
            assertThat(health.status()).isEqualTo("UP");
            assertThat(health.details()).containsEntry("workerId", 5).containsEntry("registry", "static worker id 5").containsKey("lease")
                    .doesNotContainKeys("pool", "leaseExpiresAt", "reservedCeiling", "renewals", "renewalFailures", "problem");
        });
    }

    @Test
    void defaultWorkerIdIsUp(final CapturedOutput output) {
        runner.run(context -> {
            SpringBootGeneration.Health health = healthLoggingNoFailure(context, output);
            assertThat(health.status()).isEqualTo("UP");
            assertThat(health.details()).containsEntry("workerId", 0).containsEntry("registry", "static worker id 0");
        });
    }

    @Test
    void closedGeneratorIsDownWithTheReason(final CapturedOutput output) {
        runner.withPropertyValues("snowkey.worker-id=6").run(context -> {
            context.getBean(SnowKeyIdGenerator.class).close();
            SpringBootGeneration.Health health = healthLoggingNoFailure(context, output);
            assertThat(health.status()).isEqualTo("DOWN");
            assertThat(health.details()).containsEntry("problem", "the SnowKey generator bean is closed").containsEntry("workerId", 6);
        });
    }

    /**
     * Asks for health twice, as a monitor polling /actuator/health would, and checks that no failure or stack trace was
     * logged meanwhile (other threads may log unrelated lines).
     */
    static SpringBootGeneration.Health healthLoggingNoFailure(final org.springframework.context.ApplicationContext context,
                                                                   final CapturedOutput output) {
        int before = output.getAll().length();
        SpringBootGeneration.health(context);
        SpringBootGeneration.Health health = SpringBootGeneration.health(context);
        String logged = output.getAll().substring(before);
        assertThat(logged).as("logged by health calls").doesNotContainIgnoringCase("health check failed").doesNotContain("\tat ");
        assertThat(health.details().values()).doesNotContainNull();
        return health;
    }
}
