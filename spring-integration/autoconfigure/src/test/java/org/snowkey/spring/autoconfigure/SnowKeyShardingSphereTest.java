package org.snowkey.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicReference;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.layout.DecodedId;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * ShardingSphere-JDBC through Spring Boot's own DataSource on a {@code jdbc:shardingsphere:} URL: the YAML key generator
 * without props takes snowkey.*, shares the bean's scope, and its ShardingSphere context closes with the Spring context.
 */
class SnowKeyShardingSphereTest {

    private static final String DEFAULTS_URL = "jdbc:shardingsphere:classpath:snowkey-defaults.yaml";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SnowKeyAutoConfiguration.class)).withConfiguration(SpringBootGeneration.dataSource())
            .withPropertyValues("spring.datasource.driver-class-name=org.apache.shardingsphere.driver.ShardingSphereDriver",
                    "snowkey.worker-id=7", "snowkey.worker-id-bits=10", "snowkey.sequence-low-bits=2");

    @Test
    void yamlKeyGeneratorWithoutPropsTakesSpringSettingsAndSharesTheScope() throws Exception {
        AtomicReference<SnowKeyIdGenerator> bean = new AtomicReference<>();
        runner.withPropertyValues("spring.datasource.url=" + DEFAULTS_URL).run(context -> {
            SnowKeyIdGenerator generator = context.getBean(SnowKeyIdGenerator.class);
            bean.set(generator);
            long id = insert(context.getBean(DataSource.class), "defaults");
            DecodedId decoded = generator.decode(id);
            assertThat(decoded.workerId()).isEqualTo(7);
            assertThat(generator.layout().workerIdBits()).isEqualTo(10);
            // One scope: the table's stream lives in the bean's generator.
            assertThat(generator.streams()).containsKey("spring_defaults.t_order");
            assertThat(generator.streams().get("spring_defaults.t_order").idsIssued()).isEqualTo(1);
            assertThat(driverCache()).containsKey(DEFAULTS_URL);
        });
        // The context closed its ShardingSphere data source, so the scope has no owner left and is closed.
        assertThat(driverCache()).doesNotContainKey(DEFAULTS_URL);
        assertThat(SnowflakeRuntime.get().generators()).doesNotContain(bean.get().generator());
    }

    @Test
    void aLaterContextGetsAFreshShardingSphereDataSource() {
        AtomicReference<Long> first = new AtomicReference<>();
        runner.withPropertyValues("spring.datasource.url=" + DEFAULTS_URL)
                .run(context -> first.set(insert(context.getBean(DataSource.class), "first")));
        runner.withPropertyValues("spring.datasource.url=" + DEFAULTS_URL, "snowkey.worker-id=9").run(context -> {
            // A stale cached data source would still issue on worker id 7 of the first context.
            long id = insert(context.getBean(DataSource.class), "second");
            assertThat(context.getBean(SnowKeyIdGenerator.class).decode(id).workerId()).isEqualTo(9);
        });
    }

    @Test
    void yamlPropsOverrideSpringSettings() {
        runner.withPropertyValues("spring.datasource.url=jdbc:shardingsphere:classpath:snowkey-override.yaml").run(context -> {
            long id = insert(context.getBean(DataSource.class), "override");
            // worker-id: 3 in the YAML; the layout still comes from Spring.
            assertThat(context.getBean(SnowKeyIdGenerator.class).decode(id).workerId()).isEqualTo(3);
            assertThat(context.getBean(SnowKeyIdGenerator.class).leaseStatus().workerId()).isEqualTo(7);
        });
    }

    @Test
    void withoutClosingDriverDataSourcesShardingSphereKeepsTheLease() throws Exception {
        String url = "jdbc:shardingsphere:classpath:snowkey-override.yaml";
        AtomicReference<SnowKeyIdGenerator> bean = new AtomicReference<>();
        try {
            runner.withPropertyValues("spring.datasource.url=" + url, "snowkey.close-shardingsphere-driver-data-sources=false", "snowkey.worker-id=3")
                    .run(context -> {
                        bean.set(context.getBean(SnowKeyIdGenerator.class));
                        insert(context.getBean(DataSource.class), "kept");
                    });
            // The driver's data source outlives the context and still owns the scope: the lease is not released.
            assertThat(driverCache()).containsKey(url);
            assertThat(SnowflakeRuntime.get().generators()).contains(bean.get().generator());
        } finally {
            ShardingSphereDriverDataSources.close(url);
        }
        assertThat(SnowflakeRuntime.get().generators()).doesNotContain(bean.get().generator());
    }

    private static long insert(final DataSource dataSource, final String note) throws Exception {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO t_order (note) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
            insert.setString(1, note);
            insert.executeUpdate();
            try (ResultSet keys = insert.getGeneratedKeys()) {
                assertThat(keys.next()).isTrue();
                return keys.getLong(1);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static java.util.Map<String, DataSource> driverCache() throws Exception {
        java.sql.Driver driver = java.sql.DriverManager.getDriver(DEFAULTS_URL);
        // The driver instance that DriverManager hands out, as HikariCP uses it.
        java.lang.reflect.Field field = driver.getClass().getDeclaredField("dataSourceCache");
        field.setAccessible(true);
        Object cache = field.get(driver);
        return (java.util.Map<String, DataSource>) cache.getClass().getMethod("getDataSourceMap").invoke(cache);
    }
}
