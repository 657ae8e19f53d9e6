package org.snowkey.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicReference;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.keygen.segment.runtime.SegmentScope;
import org.snowkey.spring.SnowKeySegments;
import org.snowkey.spring.actuate.SnowKeyEndpoint;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * ShardingSphere-JDBC through Spring Boot's own DataSource, with a YAML {@code SNOWKEY_SEGMENT} key generator without
 * props: it takes {@code snowkey.segment.*}, shares the {@link SnowKeySegments} bean's scope (one sequence per table in
 * the JVM), shows in the endpoint and the meters, and its scope closes with the Spring context.
 */
class SnowKeySegmentShardingSphereTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(SpringBootGeneration.snowKey()).withConfiguration(SpringBootGeneration.dataSource())
            .withConfiguration(SpringBootGeneration.metrics())
            .withPropertyValues("spring.datasource.driver-class-name=org.apache.shardingsphere.driver.ShardingSphereDriver",
                    "spring.datasource.url=jdbc:shardingsphere:classpath:snowkey-segment.yaml", "management.endpoints.web.exposure.include=snowkey",
                    "snowkey.segment.allocator=jdbc", "snowkey.segment.jdbc.url=jdbc:h2:mem:spring_segment_ranges;DB_CLOSE_DELAY=-1",
                    "snowkey.segment.step-min=50", "snowkey.segment.step-max=50",
                    // A start value of an application-only sequence: the YAML key generator inherits it and must still start.
                    "snowkey.segment.start-values=invoice=5001");

    @Test
    void yamlSegmentKeyGeneratorTakesSpringSettingsAndSharesTheBeansSequences() {
        AtomicReference<String> scopeKey = new AtomicReference<>();
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            SnowKeySegments segments = context.getBean(SnowKeySegments.class);
            scopeKey.set(segments.scopeKey());
            DataSource dataSource = context.getBean(DataSource.class);
            long first = insert(dataSource, "a");
            long second = insert(dataSource, "b");
            // Dense keys from the first range of the table's sequence (start value 1, from snowkey.segment.*).
            assertThat(first).isEqualTo(1);
            assertThat(second).isEqualTo(2);
            // One scope: the bean's sequence of the table is the one the INSERTs used.
            assertThat(segments.sequence("spring_segment.t_order").nextId()).isEqualTo(3);
            assertThat(insert(dataSource, "c")).isEqualTo(4);
            assertThat(segments.sequence("invoice").nextId()).isEqualTo(5001);

            assertThat(SnowKeySegmentsTest.sequenceView(context.getBean(SnowKeyEndpoint.class).snowkey(), "spring_segment.t_order").step()).isEqualTo(50);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get("snowkey.segment.keys.issued").tag("key", "spring_segment.t_order").functionCounter().count()).isEqualTo(4);
        });
        // The context closed its ShardingSphere data source and the bean: the scope has no owner left.
        assertThat(SegmentRuntime.get().scopes()).extracting(SegmentScope::scopeKey).doesNotContain(scopeKey.get());
    }

    /**
     * With {@code snowkey.segment.key}, the YAML key generator issues every table from that one key: the bean's sequence
     * of the INSERTs is the shared key's (the table's own {@code <database>.<table>} would be another counter).
     */
    @Test
    void withASharedKeyTheInsertsShareTheBeansSequenceOfThatKey() {
        runner.withPropertyValues("snowkey.segment.jdbc.url=jdbc:h2:mem:spring_segment_shared_ranges;DB_CLOSE_DELAY=-1", "snowkey.segment.key=All_Orders",
                "snowkey.segment.start-value=1000000", "snowkey.segment.start-values=").run(context -> {
                    assertThat(context).hasNotFailed();
                    SnowKeySegments segments = context.getBean(SnowKeySegments.class);
                    DataSource dataSource = context.getBean(DataSource.class);
                    long first = insert(dataSource, "shared a");
                    assertThat(segments.sequence("all_orders").nextId()).isEqualTo(first + 1);
                    assertThat(insert(dataSource, "shared b")).isEqualTo(first + 2);
                });
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
}
