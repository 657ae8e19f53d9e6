package org.snowkey.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.config.GeneratorSettings;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.runtime.SnowflakePlan;
import org.snowkey.keygen.runtime.SnowflakePlanner;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.keygen.segment.SegmentPropertyNames;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.snowkey.store.jdbc.JdbcStoreProps;
import org.snowkey.store.etcd.EtcdStoreProps;
import org.snowkey.store.zookeeper.ZooKeeperStoreProps;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** snowkey.* binds to every key generator prop; what is not set is not emitted, so the key generator's own defaults apply. */
class SnowKeyPropertiesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SnowKeyAutoConfiguration.class));

    @Test
    void mirrorsEveryKeyGeneratorProp() {
        Set<String> all = new HashSet<>(PropertyNames.GENERATOR);
        all.addAll(PropertyNames.SHARED_LEASE);
        all.addAll(ZooKeeperStoreProps.NAMES);
        all.addAll(JdbcStoreProps.NAMES);
        all.addAll(EtcdStoreProps.NAMES);
        assertThat(SnowKeyPropertyMapping.SNOWFLAKE.names().keySet()).containsExactlyInAnyOrderElementsOf(all);
    }

    @Test
    void mirrorsEverySegmentKeyGeneratorProp() {
        Set<String> all = new HashSet<>(SegmentPropertyNames.NAMES);
        all.addAll(ZooKeeperStoreProps.NAMES);
        all.addAll(JdbcStoreProps.NAMES);
        all.addAll(EtcdStoreProps.NAMES);
        assertThat(SnowKeyPropertyMapping.SEGMENT.names().keySet()).containsExactlyInAnyOrderElementsOf(all);
        assertThat(SnowKeyPropertyMapping.SEGMENT.names().values()).allMatch(each -> each.startsWith("snowkey.segment."));
    }

    @Test
    void nothingSetEmitsNothingSoTheKeyGeneratorDefaultsApply() {
        assertThat(SnowKeyPropertyMapping.SNOWFLAKE.toProps(new SnowKeyProperties(), getClass().getClassLoader())).isEmpty();
        assertThat(SnowKeyPropertyMapping.SEGMENT.toProps(new SnowKeyProperties(), getClass().getClassLoader())).isEmpty();
    }

    @Test
    void bindsEverySegmentPropertyToItsPropApartFromTheLeaseConnection() {
        runner.withPropertyValues("snowkey.enabled=false", "snowkey.jdbc.url=jdbc:h2:mem:leases", "snowkey.jdbc.table=leases",
                "snowkey.segment.allocator=jdbc", "snowkey.segment.key=shared", "snowkey.segment.start-value=1000",
                "snowkey.segment.start-values=orders.t_order=5001, invoice=7", "snowkey.segment.step-min=20", "snowkey.segment.step-max=4000",
                "snowkey.segment.range-lifetime=30s", "snowkey.segment.prefetch-percent=25", "snowkey.segment.fetch-timeout=1500ms",
                "snowkey.segment.jdbc.url=jdbc:h2:mem:ranges", "snowkey.segment.jdbc.username=seg", "snowkey.segment.jdbc.password=pw2",
                "snowkey.segment.jdbc.table=ranges", "snowkey.segment.jdbc.create-table=false", "snowkey.segment.zookeeper.server-lists=zk9:2181",
                "snowkey.segment.zookeeper.namespace=segs", "snowkey.segment.zookeeper.digest=seg:key")
                .withUserConfiguration(BindOnly.class)
                .run(context -> {
                    SnowKeyProperties properties = context.getBean(SnowKeyProperties.class);
                    assertThat(SnowKeyPropertyMapping.SEGMENT.toProps(properties, getClass().getClassLoader())).isEqualTo(expected(Map.ofEntries(
                            Map.entry("segment-allocator", "jdbc"), Map.entry("segment-key", "shared"), Map.entry("segment-start-value", "1000"),
                            Map.entry("segment-start-values", "orders.t_order=5001, invoice=7"), Map.entry("segment-step-min", "20"),
                            Map.entry("segment-step-max", "4000"), Map.entry("segment-range-lifetime-milliseconds", "30000"),
                            Map.entry("segment-prefetch-percent", "25"), Map.entry("segment-fetch-timeout-milliseconds", "1500"),
                            Map.entry("jdbc-url", "jdbc:h2:mem:ranges"), Map.entry("jdbc-username", "seg"), Map.entry("jdbc-password", "pw2"),
                            Map.entry("jdbc-table", "ranges"), Map.entry("jdbc-create-table", "false"), Map.entry("zookeeper-server-lists", "zk9:2181"),
                            Map.entry("zookeeper-namespace", "segs"), Map.entry("zookeeper-digest", "seg:key"))));
                    // The lease's connection stays the lease's.
                    assertThat(SnowKeyPropertyMapping.SNOWFLAKE.toProps(properties, getClass().getClassLoader()))
                            .isEqualTo(expected(Map.of("jdbc-url", "jdbc:h2:mem:leases", "jdbc-table", "leases")));
                });
    }

    /** The published defaults reach a key generator built with no props, as ShardingSphere builds one from YAML. */
    @Test
    void aSegmentKeyGeneratorWithoutPropsInheritsTheSettings() {
        runner.withPropertyValues("snowkey.segment.step-min=30", "snowkey.segment.step-max=300", "snowkey.segment.prefetch-percent=40",
                "snowkey.segment.start-value=900").run(context -> {
                    assertThat(context).hasNotFailed();
                    org.snowkey.keygen.segment.runtime.SegmentGeneratorSettings inherited = org.snowkey.keygen.segment.runtime.SegmentPlanner.get()
                            .parseInheritingDefaults(new Properties());
                    assertThat(inherited.sequence()).isEqualTo(new org.snowkey.keygen.segment.SegmentSettings(30, 300,
                            org.snowkey.keygen.segment.SegmentSettings.defaults().targetLifetimeMillis(), 40,
                            org.snowkey.keygen.segment.SegmentSettings.defaults().fetchTimeoutMillis()));
                    assertThat(inherited.starts().defaultStart()).isEqualTo(900);
                    assertThat(inherited.allocator()).isNull();
                });
    }

    @Test
    void unsetPropertiesGetTheKeyGeneratorDefaults() {
        runner.withPropertyValues("snowkey.worker-id=9").run(context -> {
            assertThat(context).hasNotFailed();
            IdLayout layout = context.getBean(SnowKeyIdGenerator.class).layout();
            assertThat(layout.workerIdBits()).isEqualTo(GeneratorSettings.DEFAULT_WORKER_ID_BITS);
            assertThat(layout.sequenceLowBits()).isEqualTo(GeneratorSettings.DEFAULT_SEQUENCE_LOW_BITS);
            assertThat(layout.epochMillis()).isEqualTo(java.time.Instant.parse(GeneratorSettings.DEFAULT_EPOCH).toEpochMilli());
        });
        runner.run(context -> assertThat(SnowflakePlanner.get().parseInheritingDefaults(new Properties()).generator().maxWorkerIds())
                .isEqualTo(GeneratorSettings.DEFAULT_MAX_WORKER_IDS));
    }

    /**
     * snowkey.max-worker-ids-per-instance reaches the generator settings that YAML key generators inherit and the
     * generator the bean runs: a key generator of the same scope asking for another cap is refused, naming the bean's.
     */
    @Test
    void maxWorkerIdsPerInstanceReachesTheGenerator() {
        runner.withPropertyValues("snowkey.max-worker-ids-per-instance=4").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(SnowflakePlanner.get().parseInheritingDefaults(new Properties()).generator().maxWorkerIds()).isEqualTo(4);
            Properties otherCap = new Properties();
            otherCap.setProperty(PropertyNames.MAX_WORKER_IDS_PER_INSTANCE, "8");
            SnowflakePlan joining = SnowflakePlanner.get().plan(otherCap, Optional.empty());
            assertThat(joining.scopeKey()).isEqualTo(context.getBean(SnowKeyIdGenerator.class).scopeKey());
            assertThatThrownBy(() -> SnowflakeRuntime.get().generator(joining)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(PropertyNames.MAX_WORKER_IDS_PER_INSTANCE + "=4").hasMessageContaining(PropertyNames.MAX_WORKER_IDS_PER_INSTANCE + "=8");
        });
    }

    /** A bad cap fails start-up naming the snowkey.* property and the value, with the key generator prop beside it. */
    @Test
    void aBadMaxWorkerIdsPerInstanceFailsNamingThePropertyAndValue() {
        runner.withPropertyValues("snowkey.max-worker-ids-per-instance=0").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasMessageContaining("Invalid SnowKey property 'snowkey.max-worker-ids-per-instance' = '0'")
                    .hasMessageContaining("(key generator prop 'max-worker-ids-per-instance' = '0')");
        });
        runner.withPropertyValues("snowkey.worker-id=3", "snowkey.max-worker-ids-per-instance=4").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasMessageContaining("Invalid SnowKey property 'snowkey.max-worker-ids-per-instance' = '4'")
                    .hasMessageContaining("a static worker-id (3)");
        });
    }

    @Test
    void bindsEverySpringPropertyToItsProp() {
        runner.withPropertyValues("snowkey.enabled=false", "snowkey.worker-id-bits=10", "snowkey.sequence-low-bits=2", "snowkey.epoch=1577836800000",
                "snowkey.max-tolerate-time-difference=25", "snowkey.max-time-cache=3s", "snowkey.max-worker-ids-per-instance=8", "snowkey.sequence-scope=GLOBAL", "snowkey.worker-id=5",
                "snowkey.lease.registry=jdbc", "snowkey.lease.pool=orders", "snowkey.lease.duration=2m", "snowkey.lease.acquire-timeout=1500ms",
                "snowkey.lease.instance-id=app-1", "snowkey.zookeeper.server-lists=zk1:2181,zk2:2181", "snowkey.zookeeper.namespace=governance",
                "snowkey.zookeeper.digest=snow:key", "snowkey.jdbc.url=jdbc:h2:mem:leases", "snowkey.jdbc.username=sa", "snowkey.jdbc.password=pw",
                "snowkey.jdbc.table=leases", "snowkey.jdbc.create-table=false")
                // enabled=false: only the binding is looked at, no generator starts
                .withUserConfiguration(BindOnly.class)
                .run(context -> {
                    Properties props = SnowKeyPropertyMapping.SNOWFLAKE.toProps(context.getBean(SnowKeyProperties.class), getClass().getClassLoader());
                    assertThat(props).isEqualTo(expected(Map.ofEntries(Map.entry("worker-id-bits", "10"), Map.entry("sequence-low-bits", "2"),
                            Map.entry("epoch", "1577836800000"), Map.entry("max-tolerate-time-difference-milliseconds", "25"),
                            Map.entry("max-time-cache-milliseconds", "3000"), Map.entry("max-worker-ids-per-instance", "8"), Map.entry("sequence-scope", "global"), Map.entry("worker-id", "5"),
                            Map.entry("lease-registry", "jdbc"), Map.entry("lease-pool", "orders"), Map.entry("lease-duration-milliseconds", "120000"),
                            Map.entry("lease-acquire-timeout-milliseconds", "1500"), Map.entry("instance-id", "app-1"),
                            Map.entry("zookeeper-server-lists", "zk1:2181,zk2:2181"), Map.entry("zookeeper-namespace", "governance"),
                            Map.entry("zookeeper-digest", "snow:key"), Map.entry("jdbc-url", "jdbc:h2:mem:leases"), Map.entry("jdbc-username", "sa"),
                            Map.entry("jdbc-password", "pw"), Map.entry("jdbc-table", "leases"), Map.entry("jdbc-create-table", "false"))));
                });
    }

    /** snowkey.etcd.* reach the lease's etcd-* props, snowkey.segment.etcd.* the segment allocator's, each apart from the other. */
    @Test
    void bindsEveryEtcdPropertyOfBothKeyGeneratorsToItsProp() {
        runner.withPropertyValues("snowkey.enabled=false", "snowkey.lease.registry=etcd", "snowkey.etcd.endpoints=http://etcd-1:2379,http://etcd-2:2379",
                "snowkey.etcd.namespace=governance", "snowkey.etcd.user=lease", "snowkey.etcd.password=pw", "snowkey.etcd.password-env=LEASE_PW",
                "snowkey.etcd.password-file=/run/lease-pw", "snowkey.etcd.ca-file=/etc/ca.pem", "snowkey.etcd.cert-file=/etc/cert.pem",
                "snowkey.etcd.key-file=/etc/key.pem", "snowkey.etcd.request-timeout=2s",
                "snowkey.segment.allocator=etcd", "snowkey.segment.etcd.endpoints=https://etcd-9:2379", "snowkey.segment.etcd.namespace=segs",
                "snowkey.segment.etcd.user=seg", "snowkey.segment.etcd.password-file=/run/seg-pw", "snowkey.segment.etcd.request-timeout=750")
                .withUserConfiguration(BindOnly.class)
                .run(context -> {
                    SnowKeyProperties properties = context.getBean(SnowKeyProperties.class);
                    assertThat(SnowKeyPropertyMapping.SNOWFLAKE.toProps(properties, getClass().getClassLoader())).isEqualTo(expected(Map.ofEntries(
                            Map.entry("lease-registry", "etcd"), Map.entry("etcd-endpoints", "http://etcd-1:2379,http://etcd-2:2379"),
                            Map.entry("etcd-namespace", "governance"), Map.entry("etcd-user", "lease"), Map.entry("etcd-password", "pw"),
                            Map.entry("etcd-password-env", "LEASE_PW"), Map.entry("etcd-password-file", "/run/lease-pw"), Map.entry("etcd-ca-file", "/etc/ca.pem"),
                            Map.entry("etcd-cert-file", "/etc/cert.pem"), Map.entry("etcd-key-file", "/etc/key.pem"),
                            Map.entry("etcd-request-timeout-milliseconds", "2000"))));
                    assertThat(SnowKeyPropertyMapping.SEGMENT.toProps(properties, getClass().getClassLoader())).isEqualTo(expected(Map.ofEntries(
                            Map.entry("segment-allocator", "etcd"), Map.entry("etcd-endpoints", "https://etcd-9:2379"), Map.entry("etcd-namespace", "segs"),
                            Map.entry("etcd-user", "seg"), Map.entry("etcd-password-file", "/run/seg-pw"),
                            Map.entry("etcd-request-timeout-milliseconds", "750"))));
                });
    }

    /** A bad etcd value fails start-up naming the snowkey.* property, as the key generator would name its prop. */
    @Test
    void aBadEtcdEndpointFailsNamingTheSpringProperty() {
        runner.withPropertyValues("snowkey.lease.registry=etcd", "snowkey.etcd.endpoints=ftp://etcd-1:2379").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(org.snowkey.keygen.config.InvalidSettingException.class);
            assertThat(context.getStartupFailure()).hasMessageContaining("Invalid SnowKey property 'snowkey.etcd.endpoints' = 'ftp://etcd-1:2379'")
                    .hasMessageContaining("(key generator prop 'etcd-endpoints'");
        });
    }

    @Test
    void configurationMetadataDocumentsEveryProperty() throws Exception {
        JsonNode metadata;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            metadata = new ObjectMapper().readTree(in);
        }
        Set<String> documented = new HashSet<>();
        for (JsonNode each : metadata.get("properties")) {
            if (each.hasNonNull("description") && !each.get("description").asText().isBlank()) {
                documented.add(each.get("name").asText());
            }
        }
        assertThat(documented).containsAll(SnowKeyPropertyMapping.SNOWFLAKE.names().values()).containsAll(SnowKeyPropertyMapping.SEGMENT.names().values())
                .contains("snowkey.enabled");
    }

    private static Properties expected(final Map<String, String> entries) {
        Properties props = new Properties();
        props.putAll(entries);
        return props;
    }

    @org.springframework.boot.context.properties.EnableConfigurationProperties(SnowKeyProperties.class)
    static class BindOnly {
    }
}
