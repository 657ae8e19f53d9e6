package org.snowkey.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.keygen.segment.SegmentSequence;
import org.snowkey.keygen.segment.SegmentStatus;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.keygen.segment.runtime.SegmentScope;
import org.snowkey.spring.SnowKeySegments;
import org.snowkey.spring.actuate.SnowKeyDescriptors;
import org.snowkey.spring.actuate.SnowKeyEndpoint;
import org.snowkey.spring.actuate.SnowKeySegmentMetrics;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The {@link SnowKeySegments} bean over a real JDBC allocator (an H2 table): created only with an allocator, named
 * sequences for application code, health, the endpoint's {@code segments} and the meters, and the scope released when
 * the context closes. Sequence keys are unique per test: the runtime is JVM-wide.
 */
@ExtendWith(OutputCaptureExtension.class)
class SnowKeySegmentsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(SpringBootGeneration.snowKey())
            .withPropertyValues("management.endpoints.web.exposure.include=snowkey");

    private static String[] jdbcAllocator(final String database, final String... more) {
        List<String> all = new java.util.ArrayList<>(List.of("snowkey.segment.allocator=jdbc", "snowkey.segment.jdbc.url=" + url(database),
                "snowkey.segment.jdbc.username=sa"));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    private static String url(final String database) {
        return "jdbc:h2:mem:" + database + ";DB_CLOSE_DELAY=-1";
    }

    @Test
    void noAllocatorNoBeanAndNoScope() {
        int scopesBefore = SegmentRuntime.get().scopes().size();
        runner.withPropertyValues("snowkey.segment.step-min=50").run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(SnowKeySegments.class).hasSingleBean(SnowKeySegmentDefaults.class);
            assertThat(SegmentRuntime.get().scopes()).hasSize(scopesBefore);
        });
    }

    @Test
    void namedSequencesIssueDenseIncreasingKeysAndTheScopeIsReleasedAtClose() {
        AtomicReference<String> scopeKey = new AtomicReference<>();
        AtomicReference<SnowKeySegments> bean = new AtomicReference<>();
        runner.withPropertyValues(jdbcAllocator("seg_named", "snowkey.segment.step-min=10", "snowkey.segment.step-max=10",
                "snowkey.segment.start-values=Invoice=5001")).run(context -> {
                    SnowKeySegments segments = context.getBean(SnowKeySegments.class);
                    bean.set(segments);
                    scopeKey.set(segments.scopeKey());
                    assertThat(segments.allocator()).contains("jdbc:h2:mem:seg_named");
                    // Folded as a table name: "Invoice" and "invoice" are one sequence, starting at its start value.
                    assertThat(segments.sequence("Invoice").nextId()).isEqualTo(5001);
                    assertThat(segments.sequence("invoice").nextId()).isEqualTo(5002);
                    SegmentSequence orders = segments.sequence("orders");
                    long previous = 0;
                    for (int i = 0; i < 35; i++) {
                        long id = orders.nextId();
                        assertThat(id).isGreaterThan(previous);
                        previous = id;
                    }
                    assertThat(previous).isEqualTo(35);
                    assertThat(SegmentRuntime.get().scopes()).extracting(SegmentScope::scopeKey).contains(scopeKey.get());
                });
        assertThat(bean.get().isClosed()).isTrue();
        assertThat(SegmentRuntime.get().scopes()).extracting(SegmentScope::scopeKey).doesNotContain(scopeKey.get());
        assertThatThrownBy(() -> bean.get().sequence("orders")).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        // A later context takes fresh ranges: the unused rest of the first one's is a gap, never reissued.
        runner.withPropertyValues(jdbcAllocator("seg_named", "snowkey.segment.step-min=10", "snowkey.segment.step-max=10"))
                .run(context -> assertThat(context.getBean(SnowKeySegments.class).sequence("orders").nextId()).isGreaterThan(35));
    }

    @Test
    void healthEndpointAndMetersShowTheSequences(final CapturedOutput output) {
        runner.withConfiguration(SpringBootGeneration.metrics())
                .withPropertyValues(jdbcAllocator("seg_observed", "snowkey.segment.step-min=10", "snowkey.segment.step-max=10")).run(context -> {
                    SnowKeySegments segments = context.getBean(SnowKeySegments.class);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(context).hasSingleBean(SnowKeySegmentMetrics.class);
                    // The sequence appears after the meters were bound, as a table's does on its first INSERT.
                    assertThat(registry.find("snowkey.segment.keys.issued").tag("key", "observed").functionCounter()).isNull();
                    SegmentSequence sequence = segments.sequence("observed");
                    for (int i = 0; i < 25; i++) {
                        sequence.nextId();
                    }
                    assertThat(registry.get("snowkey.segment.keys.issued").tag("key", "observed").functionCounter().count()).isEqualTo(25);
                    assertThat(registry.get("snowkey.segment.ranges.fetched").tag("key", "observed").functionCounter().count()).isGreaterThanOrEqualTo(3);
                    assertThat(registry.get("snowkey.segment.fetch.failures").tag("key", "observed").functionCounter().count()).isZero();
                    assertThat(registry.get("snowkey.segment.remaining").tag("key", "observed").gauge().value()).isPositive();
                    assertThat(registry.get("snowkey.segment.step").tag("key", "observed").gauge().value()).isEqualTo(10);
                    assertThat(registry.get("snowkey.segment.fetch.latency").tag("key", "observed").timeGauge().value(TimeUnit.NANOSECONDS)).isPositive();
                    assertThat(registry.get("snowkey.segment.runway").tag("key", "observed").timeGauge().value(TimeUnit.SECONDS)).isPositive();
                    // Moving: the counter follows the keys issued.
                    sequence.nextIds(5);
                    assertThat(registry.get("snowkey.segment.keys.issued").tag("key", "observed").functionCounter().count()).isEqualTo(30);

                    SpringBootGeneration.Health health = SnowKeyHealthTest.healthLoggingNoFailure(context, output);
                    assertThat(health.status()).isEqualTo("UP");
                    Map<String, Object> observed = segmentDetails(health, "observed");
                    assertThat(observed).containsEntry("step", 10L).containsEntry("fetchFailures", 0L)
                            .containsKeys("allocator", "remaining", "keysPerSecond", "rangesFetched", "lastFetchMillis").doesNotContainKeys("lastFailure", "stoppedBecause");
                    assertThat(health.details()).doesNotContainKey("problem");

                    SnowKeyDescriptors.SegmentSequenceView described = sequenceView(context.getBean(SnowKeyEndpoint.class).snowkey(), "observed");
                    assertThat(described.step()).isEqualTo(10);
                    assertThat(described.rangesFetched()).isGreaterThanOrEqualTo(3);
                    assertThat(described.lastFetchMillis()).isPositive();
                    assertThat(described.lastFailure()).isNull();
                });
    }

    /** A counter row set back by hand makes the allocator hand out a range again: the sequence stops for good, health is DOWN. */
    @Test
    void aSequenceStoppedForGoodIsDown(final CapturedOutput output) {
        runner.withPropertyValues(jdbcAllocator("seg_stopped", "snowkey.segment.step-min=10", "snowkey.segment.step-max=10",
                "snowkey.segment.prefetch-percent=99")).run(context -> {
                    SegmentSequence sequence = context.getBean(SnowKeySegments.class).sequence("stopper");
                    assertThat(sequence.nextId()).isEqualTo(1);
                    try (Connection connection = DriverManager.getConnection(url("seg_stopped"), "sa", "");
                         Statement statement = connection.createStatement()) {
                        statement.executeUpdate("UPDATE snowkey_segment SET next_value = 1 WHERE seq_key = 'stopper'");
                        statement.executeUpdate("DELETE FROM snowkey_segment_log WHERE seq_key = 'stopper'");
                    }
                    // Key 9 starts the prefetch, which receives 1..10 again.
                    for (int i = 2; i <= 9; i++) {
                        assertThat(sequence.nextId()).isEqualTo(i);
                    }
                    awaitStatus(sequence, each -> each.stoppedBecause() != null);
                    assertThat(sequence.nextId()).isEqualTo(10);
                    assertThatThrownBy(sequence::nextId).isInstanceOf(RangeUnavailableException.class).hasMessageContaining("stopped");

                    SpringBootGeneration.Health health = SnowKeyHealthTest.healthLoggingNoFailure(context, output);
                    assertThat(health.status()).isEqualTo("DOWN");
                    assertThat((String) health.details().get("problem")).startsWith("segment sequence 'stopper' stopped for good: ");
                    assertThat(segmentDetails(health, "stopper")).containsKey("stoppedBecause");
                    assertThat(sequenceView(context.getBean(SnowKeyEndpoint.class).snowkey(), "stopper").stoppedBecause()).contains("does not lie above");
                });
    }

    @Test
    void noKeysLeftAndAFailingAllocatorIsDownWithoutTheSecret(final CapturedOutput output) throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        runner.withPropertyValues("snowkey.segment.allocator=jdbc",
                "snowkey.segment.jdbc.url=jdbc:h2:tcp://127.0.0.1:" + closedPort + "/mem:gone;PASSWORD=" + SnowKeyActuatorSecretsTest.SECRET,
                "snowkey.segment.jdbc.password=" + SnowKeyActuatorSecretsTest.SECRET, "snowkey.segment.fetch-timeout=300ms").run(context -> {
                    assertThat(context).hasNotFailed();
                    SegmentSequence sequence = context.getBean(SnowKeySegments.class).sequence("unreachable");
                    assertThatThrownBy(sequence::nextId).isInstanceOf(RangeUnavailableException.class)
                            .hasMessageContaining("'unreachable'").hasMessageContaining("127.0.0.1:" + closedPort);
                    awaitStatus(sequence, each -> each.lastFailure() != null && each.fetchFailures() > 0);

                    SpringBootGeneration.Health health = SnowKeyHealthTest.healthLoggingNoFailure(context, output);
                    assertThat(health.status()).isEqualTo("DOWN");
                    assertThat((String) health.details().get("problem"))
                            .startsWith("segment sequence 'unreachable' has no keys left and its allocator fails: ");
                    assertThat(segmentDetails(health, "unreachable")).containsEntry("remaining", 0L).containsKey("lastFailure");
                    ObjectMapper json = new ObjectMapper();
                    String shown = json.writeValueAsString(health.details()) + json.writeValueAsString(context.getBean(SnowKeyEndpoint.class).snowkey());
                    assertThat(shown).contains("127.0.0.1:" + closedPort).doesNotContain(SnowKeyActuatorSecretsTest.SECRET);
                });
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> segmentDetails(final SpringBootGeneration.Health health, final String key) {
        List<Map<String, Object>> segments = (List<Map<String, Object>>) health.details().get("segments");
        assertThat(segments).as("segments in the health details").isNotNull();
        return segments.stream().filter(each -> key.equals(each.get("key"))).findFirst()
                .orElseThrow(() -> new AssertionError("no sequence '" + key + "' in " + segments));
    }

    static SnowKeyDescriptors.SegmentSequenceView sequenceView(final SnowKeyDescriptors.Generator described, final String key) {
        return described.segments().stream().flatMap(each -> each.sequences().stream()).filter(each -> key.equals(each.key())).findFirst()
                .orElseThrow(() -> new AssertionError("no sequence '" + key + "' in " + described.segments()));
    }

    /** Waits for a background fetch to reach a state; the deadline only bounds a hang, nothing is asserted about time. */
    private static void awaitStatus(final SegmentSequence sequence, final java.util.function.Predicate<SegmentStatus> reached) throws InterruptedException {
        await(() -> reached.test(sequence.status()));
    }

    private static void await(final BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not reached within 60 s");
            }
            Thread.sleep(20);
        }
    }
}
