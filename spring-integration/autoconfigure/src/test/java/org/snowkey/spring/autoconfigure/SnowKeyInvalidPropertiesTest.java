package org.snowkey.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

/** Each invalid value fails start-up with a message that names the snowkey.* property; nothing needs a registry. */
class SnowKeyInvalidPropertiesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SnowKeyAutoConfiguration.class));

    static Stream<Arguments> invalidValues() {
        return Stream.of(
                Arguments.of("snowkey.worker-id-bits", new String[] {"snowkey.worker-id-bits=22"}),
                Arguments.of("snowkey.sequence-low-bits", new String[] {"snowkey.sequence-low-bits=10"}),
                Arguments.of("snowkey.epoch", new String[] {"snowkey.epoch=yesterday"}),
                Arguments.of("snowkey.epoch", new String[] {"snowkey.epoch=2999-01-01T00:00:00Z"}),
                Arguments.of("snowkey.max-tolerate-time-difference", new String[] {"snowkey.max-tolerate-time-difference=2d"}),
                Arguments.of("snowkey.max-time-cache", new String[] {"snowkey.max-time-cache=-1ms"}),
                Arguments.of("snowkey.max-worker-ids-per-instance", new String[] {"snowkey.max-worker-ids-per-instance=0"}),
                Arguments.of("snowkey.max-worker-ids-per-instance", new String[] {"snowkey.max-worker-ids-per-instance=8193"}),
                Arguments.of("snowkey.max-worker-ids-per-instance", new String[] {"snowkey.worker-id=3", "snowkey.max-worker-ids-per-instance=2"}),
                Arguments.of("snowkey.worker-id", new String[] {"snowkey.worker-id=8192"}),
                Arguments.of("snowkey.worker-id", new String[] {"snowkey.worker-id=1", "snowkey.lease.registry=zookeeper",
                    "snowkey.zookeeper.server-lists=127.0.0.1:2181"}),
                Arguments.of("snowkey.lease.registry", new String[] {"snowkey.lease.registry=consul"}),
                // Lease settings that cannot apply: a static worker id takes no lease; one registry's settings under another.
                Arguments.of("snowkey.lease.duration", new String[] {"snowkey.worker-id=3", "snowkey.lease.duration=500ms"}),
                Arguments.of("snowkey.lease.duration", new String[] {"snowkey.worker-id=3", "snowkey.lease.duration=5s"}),
                Arguments.of("snowkey.lease.pool", new String[] {"snowkey.worker-id=3", "snowkey.lease.pool=orders"}),
                Arguments.of("snowkey.jdbc.table", new String[] {"snowkey.worker-id=3", "snowkey.jdbc.table=leases"}),
                Arguments.of("snowkey.jdbc.url", new String[] {"snowkey.lease.registry=zookeeper", "snowkey.zookeeper.server-lists=127.0.0.1:2181",
                    "snowkey.jdbc.url=jdbc:h2:mem:x"}),
                Arguments.of("snowkey.lease.pool", new String[] {"snowkey.lease.pool=no spaces", "snowkey.lease.registry=zookeeper",
                    "snowkey.zookeeper.server-lists=127.0.0.1:2181"}),
                Arguments.of("snowkey.lease.duration", new String[] {"snowkey.lease.duration=500ms", "snowkey.lease.registry=zookeeper",
                    "snowkey.zookeeper.server-lists=127.0.0.1:2181"}),
                Arguments.of("snowkey.lease.acquire-timeout", new String[] {"snowkey.lease.acquire-timeout=2h", "snowkey.lease.registry=zookeeper",
                    "snowkey.zookeeper.server-lists=127.0.0.1:2181"}),
                Arguments.of("snowkey.lease.instance-id", new String[] {"snowkey.lease.instance-id=" + "x".repeat(300), "snowkey.lease.registry=zookeeper",
                    "snowkey.zookeeper.server-lists=127.0.0.1:2181"}),
                Arguments.of("snowkey.zookeeper.server-lists", new String[] {"snowkey.lease.registry=zookeeper"}),
                Arguments.of("snowkey.zookeeper.server-lists", new String[] {"snowkey.lease.registry=zookeeper", "snowkey.zookeeper.server-lists=no-port"}),
                Arguments.of("snowkey.zookeeper.namespace", new String[] {"snowkey.lease.registry=zookeeper", "snowkey.zookeeper.server-lists=127.0.0.1:2181",
                    "snowkey.zookeeper.namespace=a/b"}),
                Arguments.of("snowkey.zookeeper.digest", new String[] {"snowkey.lease.registry=zookeeper", "snowkey.zookeeper.server-lists=127.0.0.1:2181",
                    "snowkey.zookeeper.digest=no-colon"}),
                Arguments.of("snowkey.jdbc.url", new String[] {"snowkey.lease.registry=jdbc"}),
                Arguments.of("snowkey.jdbc.url", new String[] {"snowkey.lease.registry=jdbc", "snowkey.jdbc.url=h2:mem:x"}),
                Arguments.of("snowkey.jdbc.table", new String[] {"snowkey.lease.registry=jdbc", "snowkey.jdbc.url=jdbc:h2:mem:x", "snowkey.jdbc.table=drop;table"}),
                // Values Spring cannot convert fail in Spring's binder, which names the property too.
                Arguments.of("snowkey.sequence-scope", new String[] {"snowkey.sequence-scope=column"}),
                Arguments.of("snowkey.lease.duration", new String[] {"snowkey.lease.duration=forever"}),
                Arguments.of("snowkey.jdbc.create-table", new String[] {"snowkey.jdbc.create-table=maybe"}),
                // snowkey.segment.*: checked at start-up whether or not an allocator is set.
                Arguments.of("snowkey.segment.allocator", new String[] {"snowkey.segment.allocator=consul"}),
                Arguments.of("snowkey.segment.step-min", new String[] {"snowkey.segment.step-min=0"}),
                Arguments.of("snowkey.segment.step-max", new String[] {"snowkey.segment.step-min=100", "snowkey.segment.step-max=10"}),
                Arguments.of("snowkey.segment.range-lifetime", new String[] {"snowkey.segment.range-lifetime=2d"}),
                Arguments.of("snowkey.segment.prefetch-percent", new String[] {"snowkey.segment.prefetch-percent=100"}),
                Arguments.of("snowkey.segment.fetch-timeout", new String[] {"snowkey.segment.fetch-timeout=11m"}),
                Arguments.of("snowkey.segment.start-value", new String[] {"snowkey.segment.start-value=0"}),
                Arguments.of("snowkey.segment.start-values", new String[] {"snowkey.segment.start-values=orders.t_order"}),
                Arguments.of("snowkey.segment.start-values", new String[] {"snowkey.segment.start-values=orders.t_order=-5"}),
                Arguments.of("snowkey.segment.key", new String[] {"snowkey.segment.key=" + "k".repeat(192)}),
                Arguments.of("snowkey.segment.jdbc.url", new String[] {"snowkey.segment.jdbc.url=jdbc:h2:mem:x"}),
                Arguments.of("snowkey.segment.jdbc.url", new String[] {"snowkey.segment.allocator=jdbc"}),
                Arguments.of("snowkey.segment.jdbc.url", new String[] {"snowkey.segment.allocator=jdbc", "snowkey.segment.jdbc.url=h2:mem:x"}),
                Arguments.of("snowkey.segment.jdbc.table", new String[] {"snowkey.segment.allocator=jdbc", "snowkey.segment.jdbc.url=jdbc:h2:mem:x",
                    "snowkey.segment.jdbc.table=drop;table"}),
                Arguments.of("snowkey.segment.zookeeper.server-lists", new String[] {"snowkey.segment.allocator=zookeeper"}),
                Arguments.of("snowkey.segment.zookeeper.server-lists", new String[] {"snowkey.segment.allocator=jdbc", "snowkey.segment.jdbc.url=jdbc:h2:mem:x",
                    "snowkey.segment.zookeeper.server-lists=127.0.0.1:2181"}),
                Arguments.of("snowkey.segment.zookeeper.digest", new String[] {"snowkey.segment.allocator=zookeeper",
                    "snowkey.segment.zookeeper.server-lists=127.0.0.1:2181", "snowkey.segment.zookeeper.digest=no-colon"}),
                Arguments.of("snowkey.segment.step-min", new String[] {"snowkey.segment.step-min=many"}),
                Arguments.of("snowkey.segment.fetch-timeout", new String[] {"snowkey.segment.fetch-timeout=soon"}));
    }

    /** The value is quoted as Spring was given it (durations in Spring's spelling), with the plugin's prop beside it. */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
        "snowkey.segment.step-min=0|Invalid SnowKey property 'snowkey.segment.step-min' = '0': ",
        "snowkey.segment.prefetch-percent=100|Invalid SnowKey property 'snowkey.segment.prefetch-percent' = '100': ",
        "snowkey.segment.range-lifetime=2d|Invalid SnowKey property 'snowkey.segment.range-lifetime' = '172800000ms': ",
        "snowkey.segment.allocator=consul|Invalid SnowKey property 'snowkey.segment.allocator' = 'consul': "})
    void segmentFailureQuotesTheValue(final String setting, final String expectedStart) {
        runner.withPropertyValues(setting).run(context -> {
            FailureAnalysis analysis = new SnowKeyFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).startsWith(expectedStart).contains("(key generator prop 'segment-");
        });
    }

    /** A rejected setting is not left behind as a default for the ShardingSphere key generators built later in the JVM. */
    @org.junit.jupiter.api.Test
    void invalidSegmentSettingsAreNotPublished() {
        runner.withPropertyValues("snowkey.segment.step-min=77").run(context -> assertThat(context).hasNotFailed());
        assertThat(org.snowkey.keygen.segment.runtime.SegmentPlanner.get().parseInheritingDefaults(new java.util.Properties()).sequence().minStep())
                .isEqualTo(77);
        runner.withPropertyValues("snowkey.segment.step-min=78", "snowkey.segment.prefetch-percent=100").run(context -> assertThat(context).hasFailed());
        assertThat(org.snowkey.keygen.segment.runtime.SegmentPlanner.get().parseInheritingDefaults(new java.util.Properties()).sequence().minStep())
                .isEqualTo(org.snowkey.keygen.segment.SegmentSettings.defaults().minStep());
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("invalidValues")
    void startUpFailsNamingTheProperty(final String property, final String[] values) {
        runner.withPropertyValues(values).run(context -> {
            assertThat(context).hasFailed();
            Throwable failure = context.getStartupFailure();
            assertThat(messages(failure)).contains("'" + property + "'");
        });
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("invalidValues")
    void failureReportNamesTheProperty(final String property, final String[] values) {
        runner.withPropertyValues(values).run(context -> {
            FailureAnalysis analysis = new SnowKeyFailureAnalyzer().analyze(context.getStartupFailure());
            if (analysis != null) {
                // Ours: the description is the translated message, the action names the property to correct.
                assertThat(analysis.getDescription()).startsWith("Invalid SnowKey property '" + property + "' = '");
                assertThat(analysis.getAction()).contains(property);
            }
        });
    }

    private static String messages(final Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable each = failure; each != null; each = each.getCause()) {
            all.append(each.getMessage()).append('\n');
        }
        return all.toString() + NestedExceptionUtils.getMostSpecificCause(failure).getMessage();
    }
}
