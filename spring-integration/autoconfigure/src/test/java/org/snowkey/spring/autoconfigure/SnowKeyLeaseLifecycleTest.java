package org.snowkey.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.fasterxml.jackson.databind.JsonNode;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.snowkey.keygen.generator.IdBatch;
import org.snowkey.keygen.lease.LeaseStatus;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.snowkey.spring.actuate.SnowKeyDescriptors;
import org.snowkey.spring.actuate.SnowKeyEndpoint;
import org.snowkey.spring.actuate.SnowKeyMetrics;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The lease through the context's life, on a real ZooKeeper: acquired at start, visible in Actuator, released at close. */
@ExtendWith(OutputCaptureExtension.class)
class SnowKeyLeaseLifecycleTest {

    private static TestingServer zookeeper;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(SpringBootGeneration.snowKey())
            .withPropertyValues("snowkey.lease.registry=zookeeper", "snowkey.zookeeper.server-lists=" + zookeeper.getConnectString(),
                    "management.endpoints.web.exposure.include=snowkey");

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zookeeper = new TestingServer(true);
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        zookeeper.close();
    }

    @Test
    void leasesAtStartUpAndReleasesTheHighWaterMarkAtClose() throws Exception {
        AtomicReference<Long> highest = new AtomicReference<>();
        AtomicReference<Integer> workerId = new AtomicReference<>();
        runner.withPropertyValues("snowkey.lease.pool=lifecycle").run(context -> {
            SnowKeyIdGenerator generator = context.getBean(SnowKeyIdGenerator.class);
            // Held before anything asked for an id.
            LeaseStatus status = generator.leaseStatus();
            assertThat(status.healthy()).isTrue();
            assertThat(status.pool()).isEqualTo("lifecycle");
            workerId.set(status.workerId());
            assertThat(ZooKeeperLeases.read(zookeeper.getConnectString(), "lifecycle", status.workerId()).get("state").asText()).isEqualTo("HELD");

            IdBatch batch = generator.nextIds(1000);
            long id = generator.stream("invoices").nextId();
            highest.set(Math.max(generator.decode(batch.id(999)).timestamp().toEpochMilli(), generator.decode(id).timestamp().toEpochMilli()));
            assertThat(generator.decode(id).workerId()).isEqualTo(status.workerId());
        });
        JsonNode record = ZooKeeperLeases.read(zookeeper.getConnectString(), "lifecycle", workerId.get());
        assertThat(record.get("state").asText()).isEqualTo("RELEASED");
        // Exact high-water mark: the latest timestamp issued by any stream of the scope.
        assertThat(record.get("reservedUntil").asLong()).isEqualTo(highest.get());
    }

    @Test
    void highWaterMarkIsTheLatestIdTimestamp() {
        AtomicReference<Long> lastId = new AtomicReference<>();
        AtomicReference<Integer> workerId = new AtomicReference<>();
        AtomicReference<SnowKeyIdGenerator> bean = new AtomicReference<>();
        runner.withPropertyValues("snowkey.lease.pool=highwater").run(context -> {
            SnowKeyIdGenerator generator = context.getBean(SnowKeyIdGenerator.class);
            bean.set(generator);
            workerId.set(generator.leaseStatus().workerId());
            long id = 0;
            for (int i = 0; i < 5000; i++) {
                id = generator.nextId();
            }
            lastId.set(id);
        });
        assertThat(bean.get().isClosed()).isTrue();
        try {
            JsonNode record = ZooKeeperLeases.read(zookeeper.getConnectString(), "highwater", workerId.get());
            assertThat(record.get("state").asText()).isEqualTo("RELEASED");
            assertThat(record.get("reservedUntil").asLong()).isEqualTo(bean.get().decode(lastId.get()).timestamp().toEpochMilli());
        } catch (final Exception ex) {
            throw new AssertionError(ex);
        }
    }

    @Test
    void healthEndpointAndMetricsShowTheLease() {
        runner.withPropertyValues("snowkey.lease.pool=actuator").run(context -> {
            SnowKeyIdGenerator generator = context.getBean(SnowKeyIdGenerator.class);
            int workerId = generator.leaseStatus().workerId();
            generator.nextIds(10);

            SpringBootGeneration.Health health = SpringBootGeneration.health(context);
            assertThat(health.status()).isEqualTo("UP");
            assertThat(health.details()).containsEntry("workerId", workerId).containsEntry("workerIds", List.of(workerId)).containsEntry("pool", "actuator")
                    .containsKeys("registry", "leaseExpiresAt", "reservedCeiling");
            assertThat((String) health.details().get("registry")).contains(zookeeper.getConnectString());

            SnowKeyEndpoint endpoint = context.getBean(SnowKeyEndpoint.class);
            SnowKeyDescriptors.Generator described = endpoint.snowkey();
            assertThat(described.workerId()).isEqualTo(workerId);
            assertThat(described.workerIds()).containsExactly(workerId);
            assertThat(described.pool()).isEqualTo("actuator");
            assertThat(described.leaseExpiresAt()).isNotNull();
            assertThat(described.reservedCeiling()).isNotNull();
            assertThat(described.idsIssued()).isEqualTo(10);
            assertThat(described.layout().workerIdBits()).isEqualTo(13);
            long id = generator.nextId();
            SnowKeyDescriptors.Decoded decoded = endpoint.decode(id);
            assertThat(decoded.workerId()).isEqualTo(workerId);
            assertThat(decoded.id()).isEqualTo(id);

            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            context.getBean(SnowKeyMetrics.class).bindTo(registry);
            assertThat(registry.get("snowkey.ids.issued").tag("pool", "actuator").functionCounter().count()).isEqualTo(11);
            assertThat(registry.get("snowkey.time.cache").gauge().value()).isGreaterThanOrEqualTo(0);
            assertThat(registry.get("snowkey.lease.renewals").functionCounter().count()).isGreaterThanOrEqualTo(0);
            assertThat(registry.get("snowkey.lease.renewal.failures").functionCounter().count()).isZero();
            assertThat(registry.get("snowkey.clock.back.waits").functionCounter().count()).isGreaterThanOrEqualTo(0);
            assertThat(registry.get("snowkey.lease.healthy").gauge().value()).isEqualTo(1);
            assertThat(registry.get("snowkey.worker.ids").tag("pool", "actuator").gauge().value()).isEqualTo(1);

            // Released (as at shutdown): DOWN, with the reason.
            generator.close();
            SpringBootGeneration.Health down = SpringBootGeneration.health(context);
            assertThat(down.status()).isEqualTo("DOWN");
            assertThat(down.details()).containsKey("problem").containsEntry("workerIds", List.of());
            assertThat(registry.get("snowkey.worker.ids").gauge().value()).isZero();
        });
    }

    /**
     * A generator whose calls keep waiting for the clock (no time cache, batches beyond one worker id's rate) leases a
     * second worker id of its pool, and no more than snowkey.max-worker-ids-per-instance allows: its ids carry both,
     * keep increasing, and health, endpoint and gauge show both; both records belong to this instance and are released
     * with the context.
     */
    @Test
    void aHotGeneratorIssuesOnMoreWorkerIdsAndActuatorShowsThem() {
        AtomicReference<List<Integer>> held = new AtomicReference<>();
        runner.withPropertyValues("snowkey.lease.pool=hot", "snowkey.max-worker-ids-per-instance=2", "snowkey.max-time-cache=0",
                "snowkey.lease.instance-id=hot-instance").run(context -> {
                    SnowKeyIdGenerator generator = context.getBean(SnowKeyIdGenerator.class);
                    int own = generator.leaseStatus().workerId();
                    assertThat(generator.workerIds()).containsExactly(own);
                    SimpleMeterRegistry registry = new SimpleMeterRegistry();
                    context.getBean(SnowKeyMetrics.class).bindTo(registry);
                    assertThat(registry.get("snowkey.worker.ids").tag("pool", "hot").gauge().value()).isEqualTo(1);

                    // Generous: the growth thread checks every 100 ms; this only bounds a test that would otherwise hang.
                    long giveUp = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
                    long previous = Long.MIN_VALUE;
                    while (generator.workerIds().size() < 2) {
                        assertThat(System.nanoTime()).as("the hot generator leased no second worker id").isLessThan(giveUp);
                        previous = assertIncreasing(generator.nextIds(1000), previous);
                    }
                    List<Integer> workerIds = generator.workerIds();
                    assertThat(workerIds).hasSize(2).contains(own).isSorted();
                    List<Integer> carried = new ArrayList<>();
                    for (int round = 0; round < 20; round++) {
                        IdBatch batch = generator.nextIds(1000);
                        previous = assertIncreasing(batch, previous);
                        batch.forEach(id -> carried.add(generator.decode(id).workerId()));
                    }
                    assertThat(generator.workerIds()).as("never more than snowkey.max-worker-ids-per-instance").hasSizeLessThanOrEqualTo(2);
                    assertThat(carried).containsAll(generator.workerIds());

                    List<Integer> now = generator.workerIds();
                    assertThat(SpringBootGeneration.health(context).details()).containsEntry("workerId", own).containsEntry("workerIds", now);
                    assertThat(context.getBean(SnowKeyEndpoint.class).snowkey().workerIds()).isEqualTo(now);
                    assertThat(registry.get("snowkey.worker.ids").tag("pool", "hot").gauge().value()).isEqualTo(now.size());
                    for (int each : now) {
                        JsonNode record = ZooKeeperLeases.read(zookeeper.getConnectString(), "hot", each);
                        assertThat(record.get("state").asText()).isEqualTo("HELD");
                        assertThat(record.get("owner").asText()).isEqualTo("hot-instance");
                    }
                    held.set(now);
                });
        for (int each : held.get()) {
            try {
                assertThat(ZooKeeperLeases.read(zookeeper.getConnectString(), "hot", each).get("state").asText()).as("worker id %d", each).isEqualTo("RELEASED");
            } catch (final Exception ex) {
                throw new AssertionError(ex);
            }
        }
    }

    private static long assertIncreasing(final IdBatch batch, final long previous) {
        long last = previous;
        for (long each : batch) {
            assertThat(each).isGreaterThan(last);
            last = each;
        }
        return last;
    }

    @Test
    void leasedWorkerIdIsUpWithItsLease(final CapturedOutput output) {
        runner.withPropertyValues("snowkey.lease.pool=health").run(context -> {
            int workerId = context.getBean(SnowKeyIdGenerator.class).leaseStatus().workerId();
            SpringBootGeneration.Health health = SnowKeyHealthTest.healthLoggingNoFailure(context, output);
            assertThat(health.status()).isEqualTo("UP");
            assertThat(health.details()).containsEntry("workerId", workerId).containsEntry("pool", "health")
                    .containsEntry("renewalFailures", 0L).containsKeys("registry", "leaseExpiresAt", "reservedCeiling", "renewals")
                    .doesNotContainKeys("problem", "lease");
        });
    }

    @Test
    void unreachableRegistryFailsStartUpWithTheReason() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SnowKeyAutoConfiguration.class))
                .withPropertyValues("snowkey.lease.registry=zookeeper", "snowkey.zookeeper.server-lists=127.0.0.1:" + closedPort,
                        "snowkey.lease.acquire-timeout=1s", "snowkey.lease.pool=unreachable")
                .run(context -> {
                    assertThat(context).hasFailed();
                    Throwable failure = context.getStartupFailure();
                    SnowKeyLeaseException cause = findCause(failure, SnowKeyLeaseException.class);
                    assertThat(cause).isNotNull();
                    assertThat(cause.getMessage()).startsWith("SnowKey could not obtain a worker id during start-up").contains("127.0.0.1:" + closedPort);
                    assertThat(new SnowKeyLeaseFailureAnalyzer().analyze(failure).getAction()).contains("snowkey.zookeeper.server-lists");
                });
    }

    @Test
    void dataSourcesCloseBeforeTheLeaseIsReleased() {
        runner.withPropertyValues("snowkey.lease.pool=order").withUserConfiguration(ProbeDataSourceConfiguration.class).run(context -> {
            ProbeDataSource dataSource = context.getBean(ProbeDataSource.class);
            SnowKeyIdGenerator generator = context.getBean(SnowKeyIdGenerator.class);
            // The user's data source is declared first, yet the generator (defaults, lease) came before it.
            assertThat(dataSource.generatorExistedAtStart).isTrue();
            dataSource.watch(generator);
            ((ConfigurableApplicationContext) context.getSourceApplicationContext()).close();
            assertThat(dataSource.leaseHealthyAtClose).isTrue();
            assertThat(generator.isClosed()).isTrue();
        });
    }

    private static <T extends Throwable> T findCause(final Throwable failure, final Class<T> type) {
        for (Throwable each = failure; each != null; each = each.getCause()) {
            if (type.isInstance(each)) {
                return type.cast(each);
            }
        }
        return null;
    }

    /** A real pool that notes, when the context closes it, whether SnowKey's lease was still held. */
    static class ProbeDataSource extends HikariDataSource {

        private final boolean generatorExistedAtStart;

        private volatile SnowKeyIdGenerator watched;

        private volatile Boolean leaseHealthyAtClose;

        ProbeDataSource(final boolean generatorExistedAtStart) {
            this.generatorExistedAtStart = generatorExistedAtStart;
            setJdbcUrl("jdbc:h2:mem:probe;DB_CLOSE_DELAY=-1");
        }

        void watch(final SnowKeyIdGenerator generator) {
            watched = generator;
        }

        @Override
        public void close() {
            if (leaseHealthyAtClose == null && watched != null) {
                leaseHealthyAtClose = watched.leaseStatus().healthy() && !watched.isClosed();
            }
            super.close();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ProbeDataSourceConfiguration {

        @Bean
        ProbeDataSource probeDataSource(final ConfigurableListableBeanFactory beanFactory) {
            // Only looks: asking for the generator here would order the beans by itself and prove nothing.
            return new ProbeDataSource(beanFactory.containsSingleton("snowKeyIdGenerator"));
        }
    }
}
