package org.snowkey.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;
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
     * Asks for health twice, as a monitor polling /actuator/health would, and checks that the health calls logged no
     * failure and no stack trace. The calls run on this thread; what other threads log meanwhile is theirs (a ZooKeeper
     * client of an earlier test reconnecting to its stopped server logs a stack trace now and then), so the events are
     * told apart by thread, not read off the console.
     */
    static SpringBootGeneration.Health healthLoggingNoFailure(final org.springframework.context.ApplicationContext context,
                                                                   final CapturedOutput output) {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        root.addAppender(events);
        int before = output.getAll().length();
        SpringBootGeneration.Health health;
        try {
            SpringBootGeneration.health(context);
            health = SpringBootGeneration.health(context);
        } finally {
            root.detachAppender(events);
        }
        String caller = Thread.currentThread().getName();
        List<ILoggingEvent> byHealthCalls = events.list.stream().filter(each -> caller.equals(each.getThreadName())).toList();
        assertThat(byHealthCalls).as("logged by the health calls").noneMatch(each -> each.getThrowableProxy() != null)
                .noneMatch(each -> each.getFormattedMessage().toLowerCase(Locale.ROOT).contains("health check failed"));
        assertThat(output.getAll().substring(before)).as("logged while health was asked").doesNotContainIgnoringCase("health check failed");
        assertThat(health.details().values()).doesNotContainNull();
        return health;
    }
}
