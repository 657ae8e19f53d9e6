package org.snowkey.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.config.GeneratorSettings;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.snowkey.lease.store.jdbc.JdbcLeaseProps;
import org.snowkey.lease.store.zookeeper.ZooKeeperLeaseProps;
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
        all.addAll(ZooKeeperLeaseProps.NAMES);
        all.addAll(JdbcLeaseProps.NAMES);
        assertThat(SnowKeyPropertyMapping.names().keySet()).containsExactlyInAnyOrderElementsOf(all);
    }

    @Test
    void nothingSetEmitsNothingSoTheKeyGeneratorDefaultsApply() {
        assertThat(SnowKeyPropertyMapping.toProps(new SnowKeyProperties(), getClass().getClassLoader())).isEmpty();
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
    }

    @Test
    void bindsEverySpringPropertyToItsProp() {
        runner.withPropertyValues("snowkey.enabled=false", "snowkey.worker-id-bits=10", "snowkey.sequence-low-bits=2", "snowkey.epoch=1577836800000",
                "snowkey.max-tolerate-time-difference=25", "snowkey.max-time-cache=3s", "snowkey.sequence-scope=GLOBAL", "snowkey.worker-id=5",
                "snowkey.lease.registry=jdbc", "snowkey.lease.pool=orders", "snowkey.lease.duration=2m", "snowkey.lease.acquire-timeout=1500ms",
                "snowkey.lease.instance-id=app-1", "snowkey.zookeeper.server-lists=zk1:2181,zk2:2181", "snowkey.zookeeper.namespace=governance",
                "snowkey.zookeeper.digest=snow:key", "snowkey.jdbc.url=jdbc:h2:mem:leases", "snowkey.jdbc.username=sa", "snowkey.jdbc.password=pw",
                "snowkey.jdbc.table=leases", "snowkey.jdbc.create-table=false")
                // enabled=false: only the binding is looked at, no generator starts
                .withUserConfiguration(BindOnly.class)
                .run(context -> {
                    Properties props = SnowKeyPropertyMapping.toProps(context.getBean(SnowKeyProperties.class), getClass().getClassLoader());
                    assertThat(props).isEqualTo(expected(Map.ofEntries(Map.entry("worker-id-bits", "10"), Map.entry("sequence-low-bits", "2"),
                            Map.entry("epoch", "1577836800000"), Map.entry("max-tolerate-time-difference-milliseconds", "25"),
                            Map.entry("max-time-cache-milliseconds", "3000"), Map.entry("sequence-scope", "global"), Map.entry("worker-id", "5"),
                            Map.entry("lease-registry", "jdbc"), Map.entry("lease-pool", "orders"), Map.entry("lease-duration-milliseconds", "120000"),
                            Map.entry("lease-acquire-timeout-milliseconds", "1500"), Map.entry("instance-id", "app-1"),
                            Map.entry("zookeeper-server-lists", "zk1:2181,zk2:2181"), Map.entry("zookeeper-namespace", "governance"),
                            Map.entry("zookeeper-digest", "snow:key"), Map.entry("jdbc-url", "jdbc:h2:mem:leases"), Map.entry("jdbc-username", "sa"),
                            Map.entry("jdbc-password", "pw"), Map.entry("jdbc-table", "leases"), Map.entry("jdbc-create-table", "false"))));
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
        assertThat(documented).containsAll(SnowKeyPropertyMapping.names().values()).contains("snowkey.enabled");
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
