package org.snowkey.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.snowkey.keygen.store.KnownStore;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The auto-configuration on a class path without the lease jars ({@code snowkey-registry-adapter}, {@code snowkey-lease-*}: their classes hidden
 * from the context): a static worker id starts, and a registry asked for without its backend fails naming the artifact.
 */
class SnowKeyWithoutRegistryAdapterTest {

    /** Every class of the registry adapter lives under this package. */
    private static final String ADAPTER_PACKAGE = "org.snowkey.lease.";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SnowKeyAutoConfiguration.class))
            .withClassLoader(new FilteredClassLoader(ADAPTER_PACKAGE));

    @Test
    void theBackendsAreReallyHidden() {
        runner.run(context -> {
            for (KnownStore each : KnownStore.values()) {
                assertThat(org.springframework.util.ClassUtils.isPresent(each.probeClass(), context.getClassLoader())).as(each.probeClass()).isFalse();
                assertThat(org.springframework.util.ClassUtils.isPresent(each.probeClass(), getClass().getClassLoader()))
                        .as("the provider class name is right: " + each.probeClass()).isTrue();
            }
        });
    }

    @Test
    void aStaticWorkerIdStarts() {
        runner.withPropertyValues("snowkey.worker-id=3").run(context -> {
            assertThat(context).hasNotFailed();
            SnowKeyIdGenerator generator = context.getBean(SnowKeyIdGenerator.class);
            assertThat(generator.decode(generator.nextId()).workerId()).isEqualTo(3);
        });
    }

    /** Segment settings that need no allocator backend still start. */
    @Test
    void segmentSizingWithoutAnAllocatorStarts() {
        runner.withPropertyValues("snowkey.segment.step-min=100", "snowkey.segment.start-value=5").run(context -> assertThat(context).hasNotFailed()
                .doesNotHaveBean(org.snowkey.spring.SnowKeySegments.class));
    }

    @Test
    void noSettingsAtAllStart() {
        runner.run(context -> assertThat(context).hasNotFailed().hasSingleBean(SnowKeyIdGenerator.class));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"snowkey.lease.registry=jdbc, snowkey.lease.registry, JDBC", "snowkey.lease.registry=zookeeper, snowkey.lease.registry, ZooKeeper",
        "snowkey.jdbc.url=jdbc:h2:mem:x, snowkey.jdbc.url, JDBC", "snowkey.zookeeper.server-lists=zk:2181, snowkey.zookeeper.server-lists, ZooKeeper",
        "snowkey.jdbc.create-table=false, snowkey.jdbc.create-table, JDBC",
        "snowkey.segment.allocator=jdbc, snowkey.segment.allocator, JDBC", "snowkey.segment.allocator=zookeeper, snowkey.segment.allocator, ZooKeeper",
        "snowkey.segment.jdbc.url=jdbc:h2:mem:x, snowkey.segment.jdbc.url, JDBC",
        "snowkey.segment.zookeeper.server-lists=zk:2181, snowkey.segment.zookeeper.server-lists, ZooKeeper",
        "snowkey.lease.registry=etcd, snowkey.lease.registry, etcd", "snowkey.etcd.endpoints=http://etcd:2379, snowkey.etcd.endpoints, etcd",
        "snowkey.segment.etcd.endpoints=http://etcd:2379, snowkey.segment.etcd.endpoints, etcd"})
    void aRegistryWithoutItsBackendFailsNamingTheArtifact(final String setting, final String property, final String backend) {
        runner.withPropertyValues(setting).run(context -> {
            assertThat(context).hasFailed();
            Throwable failure = context.getStartupFailure();
            FailureAnalysis analysis = new SnowKeyFailureAnalyzer().analyze(failure);
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).startsWith("Invalid SnowKey property '" + property + "' = '")
                    .contains("the " + backend + " lease backend (artifact " + KnownStore.valueOf(backend.toUpperCase(java.util.Locale.ROOT)).artifact() + ", or "
                            + KnownStore.ARTIFACT + " for both backends) is not on the class path")
                    .doesNotContain("unknown property");
            assertThat(analysis.getAction()).contains(property);
        });
    }

    @Test
    void aPasswordOfAMissingBackendIsNotShown() {
        runner.withPropertyValues("snowkey.jdbc.password=s3cret-pw").run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new SnowKeyFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("'snowkey.jdbc.password'").doesNotContain("s3cret-pw");
        });
    }
}
