package org.snowkey.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.snowkey.spring.actuate.SnowKeyEndpoint;
import org.snowkey.spring.actuate.SnowKeyHealth;
import org.springframework.boot.actuate.context.properties.ConfigurationPropertiesReportEndpoint;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.env.EnvironmentEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The {@code snowkey} health details, {@code /actuator/snowkey} and the start-up failure report never show a password,
 * a digest or a URL with credentials, whatever URL shape was configured. The secret is searched as written and
 * Base64- or hex-encoded in the JSON the endpoint renders.
 */
class SnowKeyActuatorSecretsTest {

    static final String SECRET = "Boot-Secret-6620";

    private static TestingServer zookeeper;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SnowKeyAutoConfiguration.class, SnowKeyActuatorAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=snowkey", "snowkey.lease.acquire-timeout=2s");

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zookeeper = new TestingServer(true);
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        zookeeper.close();
    }

    /** H2 takes its credentials from settings inside the URL, in any case, or from snowkey.jdbc.password. */
    @ParameterizedTest
    @ValueSource(strings = {"snowkey.jdbc.url=jdbc:h2:mem:boot_a;DB_CLOSE_DELAY=-1;USER=sa;PASSWORD=" + SECRET,
            "snowkey.jdbc.url=jdbc:h2:mem:boot_b;DB_CLOSE_DELAY=-1;user=sa;password=" + SECRET + ";MODE=MySQL",
            "snowkey.jdbc.url=jdbc:h2:mem:boot_c;DB_CLOSE_DELAY=-1|snowkey.jdbc.username=sa|snowkey.jdbc.password=" + SECRET})
    void jdbcLeaseDetailsCarryNoCredentials(final String properties) {
        runner.withPropertyValues("snowkey.lease.registry=jdbc").withPropertyValues(properties.split("\\|")).run(context -> {
            assertThat(context).hasNotFailed();
            String shown = actuatorOutput(context);
            assertThat(shown).contains("jdbc:h2:mem:boot_");
            assertNoSecret(shown);
        });
    }

    @Test
    void zookeeperDigestIsNotShown() {
        runner.withPropertyValues("snowkey.lease.registry=zookeeper", "snowkey.zookeeper.server-lists=" + zookeeper.getConnectString(),
                "snowkey.zookeeper.namespace=bootsecret", "snowkey.zookeeper.digest=snowkey:" + SECRET).run(context -> {
                    assertThat(context).hasNotFailed();
                    String shown = actuatorOutput(context);
                    assertThat(shown).contains(zookeeper.getConnectString());
                    assertNoSecret(shown);
                });
    }

    /** A backend that quotes its URL with credentials: Actuator strips them whatever the backend does. */
    @Test
    void aBackendQuotingCredentialsIsCleanedInActuator() {
        runner.withPropertyValues("snowkey.lease.registry=credential-quoting-test").run(context -> {
            assertThat(context).hasNotFailed();
            String shown = actuatorOutput(context);
            assertThat(shown).contains("jdbc:postgresql://db:5432/x?ssl=true").contains("mysql://db:3306/x");
            assertNoSecret(shown);
        });
    }

    /** URL shapes that cannot connect here: the start-up failure and its analysis stay clean. */
    @ParameterizedTest
    @ValueSource(strings = {"jdbc:postgresql://postgres:" + SECRET + "@127.0.0.1:PORT/test",
            "jdbc:mysql://(host=127.0.0.1,port=PORT,user=root,password=" + SECRET + ")/test",
            "jdbc:mariadb://root:" + SECRET + "@127.0.0.1:PORT/test?password=" + SECRET})
    void startUpFailureCarriesNoCredentials(final String url) throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        runner.withPropertyValues("snowkey.lease.registry=jdbc", "snowkey.jdbc.url=" + url.replace("PORT", String.valueOf(closedPort))).run(context -> {
            assertThat(context).hasFailed();
            Throwable failure = context.getStartupFailure();
            StringWriter trace = new StringWriter();
            failure.printStackTrace(new PrintWriter(trace));
            FailureAnalysis analysis = new SnowKeyLeaseFailureAnalyzer().analyze(failure);
            String shown = trace + (analysis == null ? "" : analysis.getDescription() + analysis.getAction());
            assertThat(shown).contains("127.0.0.1");
            assertNoSecret(shown);
        });
    }

    /**
     * Spring's own endpoints show every value once an operator sets {@code show-values: always}: SnowKey's password,
     * digest and URL credentials must still not appear there. One registry per context: the other registry's
     * settings would not apply, and start-up rejects them.
     */
    @ParameterizedTest
    @ValueSource(strings = {"jdbc", "zookeeper"})
    void springsEnvAndConfigpropsEndpointsShowNoSnowKeySecret(final String registry) {
        String[] settings = "jdbc".equals(registry)
                ? new String[] {"snowkey.lease.registry=jdbc", "snowkey.jdbc.url=jdbc:h2:mem:boot_env;DB_CLOSE_DELAY=-1;USER=sa;PASSWORD=" + SECRET,
                    "snowkey.jdbc.username=sa", "snowkey.jdbc.password=" + SECRET}
                : new String[] {"snowkey.lease.registry=zookeeper", "snowkey.zookeeper.server-lists=" + zookeeper.getConnectString(),
                    "snowkey.zookeeper.namespace=boot_env_secrets", "snowkey.zookeeper.digest=snowkey:" + SECRET};
        String shownSetting = "jdbc".equals(registry) ? "jdbc:h2:mem:boot_env" : zookeeper.getConnectString();
        String secretProperty = "jdbc".equals(registry) ? "snowkey.jdbc.password" : "snowkey.zookeeper.digest";
        runner.withPropertyValues(settings).run(context -> {
            assertThat(context).hasNotFailed();
            List<SanitizingFunction> sanitizers = context.getBeanProvider(SanitizingFunction.class).orderedStream().toList();
            assertThat(sanitizers).isNotEmpty();
            EnvironmentEndpoint env = new EnvironmentEndpoint(context.getEnvironment(), sanitizers, Show.ALWAYS);
            ConfigurationPropertiesReportEndpoint configprops = new ConfigurationPropertiesReportEndpoint(sanitizers, Show.ALWAYS);
            configprops.setApplicationContext(context);
            ObjectMapper json = new ObjectMapper();
            String shown = json.writeValueAsString(env.environment("snowkey.*")) + json.writeValueAsString(env.environmentEntry(secretProperty))
                    + json.writeValueAsString(configprops.configurationPropertiesWithPrefix("snowkey"));
            assertThat(shown).contains(shownSetting).contains(secretProperty);
            assertNoSecret(shown);
        });
    }

    /** The segment allocator's password, in its URL or its own property, shows nowhere: health, endpoint, env, configprops, meters. */
    @ParameterizedTest
    @ValueSource(strings = {"snowkey.segment.jdbc.url=jdbc:h2:mem:seg_secret_a;DB_CLOSE_DELAY=-1;USER=sa;PASSWORD=" + SECRET,
            "snowkey.segment.jdbc.url=jdbc:h2:mem:seg_secret_b;DB_CLOSE_DELAY=-1|snowkey.segment.jdbc.username=sa|snowkey.segment.jdbc.password=" + SECRET})
    void segmentAllocatorSecretsAreNotShown(final String properties) {
        runner.withConfiguration(AutoConfigurations.of(SnowKeyMetricsAutoConfiguration.class))
                .withPropertyValues("snowkey.segment.allocator=jdbc").withPropertyValues(properties.split("\\|")).run(context -> {
                    assertThat(context).hasNotFailed();
                    context.getBean(org.snowkey.spring.SnowKeySegments.class).sequence("secretive").nextIds(3);
                    io.micrometer.core.instrument.simple.SimpleMeterRegistry registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
                    context.getBean(org.snowkey.spring.actuate.SnowKeySegmentMetrics.class).bindTo(registry);
                    List<SanitizingFunction> sanitizers = context.getBeanProvider(SanitizingFunction.class).orderedStream().toList();
                    EnvironmentEndpoint env = new EnvironmentEndpoint(context.getEnvironment(), sanitizers, Show.ALWAYS);
                    ConfigurationPropertiesReportEndpoint configprops = new ConfigurationPropertiesReportEndpoint(sanitizers, Show.ALWAYS);
                    configprops.setApplicationContext(context);
                    ObjectMapper json = new ObjectMapper();
                    String shown = actuatorOutput(context) + json.writeValueAsString(env.environment("snowkey.*"))
                            + json.writeValueAsString(configprops.configurationPropertiesWithPrefix("snowkey"))
                            + registry.getMeters().stream().map(each -> each.getId().toString()).toList();
                    assertThat(shown).contains("jdbc:h2:mem:seg_secret_").contains("secretive").contains("snowkey.segment.jdbc.url")
                            .contains("snowkey.segment.keys.issued");
                    assertNoSecret(shown);
                });
    }

    @Test
    void segmentZooKeeperDigestIsNotShown() {
        runner.withPropertyValues("snowkey.segment.allocator=zookeeper", "snowkey.segment.zookeeper.server-lists=" + zookeeper.getConnectString(),
                "snowkey.segment.zookeeper.namespace=segsecret", "snowkey.segment.zookeeper.digest=snowkey:" + SECRET).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(org.snowkey.spring.SnowKeySegments.class).sequence("zk_secretive").nextId()).isEqualTo(1);
                    List<SanitizingFunction> sanitizers = context.getBeanProvider(SanitizingFunction.class).orderedStream().toList();
                    EnvironmentEndpoint env = new EnvironmentEndpoint(context.getEnvironment(), sanitizers, Show.ALWAYS);
                    ObjectMapper json = new ObjectMapper();
                    String shown = actuatorOutput(context) + json.writeValueAsString(env.environmentEntry("snowkey.segment.zookeeper.digest"));
                    assertThat(shown).contains(zookeeper.getConnectString()).contains("zk_secretive");
                    assertNoSecret(shown);
                });
    }

    /** A secret of a setting that cannot apply is named, never quoted. */
    @Test
    void aSegmentPasswordThatCannotApplyIsNotQuoted() {
        runner.withPropertyValues("snowkey.segment.jdbc.password=" + SECRET).run(context -> {
            assertThat(context).hasFailed();
            StringWriter trace = new StringWriter();
            context.getStartupFailure().printStackTrace(new PrintWriter(trace));
            FailureAnalysis analysis = new SnowKeyFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).startsWith("Invalid SnowKey property 'snowkey.segment.jdbc.password' = '(hidden)': cannot apply");
            assertNoSecret(trace + analysis.getDescription() + analysis.getAction());
        });
    }

    private static String actuatorOutput(final ConfigurableApplicationContext context) throws Exception {
        ObjectMapper json = new ObjectMapper();
        return json.writeValueAsString(SnowKeyHealth.of(context.getBean(SnowKeyIdGenerator.class), System.currentTimeMillis()).details()) + json.writeValueAsString(context.getBean(SnowKeyEndpoint.class).snowkey());
    }

    private static void assertNoSecret(final String text) {
        byte[] bytes = SECRET.getBytes(StandardCharsets.UTF_8);
        for (String each : List.of(SECRET, Base64.getEncoder().encodeToString(bytes), HexFormat.of().formatHex(bytes), HexFormat.of().withUpperCase().formatHex(bytes))) {
            assertThat(text).doesNotContain(each);
        }
    }
}
