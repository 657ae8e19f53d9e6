package org.snowkey.keygen.shardingsphere.v52;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.keygen.testkit.H2LeaseTable;
import org.snowkey.keygen.testkit.LineContract;
import org.snowkey.keygen.testkit.LineFixture;
import org.snowkey.keygen.testkit.StarterProperties;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * IMPROVED_SNOWFLAKE configured the way ShardingSphere 5.2 users configure it: ShardingSphere's own
 * {@code shardingsphere-jdbc-core-spring-boot-starter} with {@code spring.shardingsphere.rules.sharding.key-generators.*}
 * properties, in a Spring Boot 2 application.
 */
class SpringBootStarter52Test {

    private final H2LeaseTable leases = new H2LeaseTable();

    @AfterEach
    void releaseLeases() {
        SnowflakeRuntime.get().closeAll();
    }

    @Test
    void theStarterFillsKeysOfALeasedWorkerId() throws Exception {
        LineFixture fixture = new LineFixture("databaseName");
        long before = System.currentTimeMillis();
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
                .properties(StarterProperties.sharding(fixture, leases.props("boot"))).run()) {
            List<Integer> held = leases.heldWorkerIds("boot");
            assertEquals(1, held.size(), "leased at start-up: " + held);
            try (Connection connection = context.getBean(DataSource.class).getConnection(); Statement statement = connection.createStatement()) {
                statement.executeUpdate("INSERT INTO t_order (user_id, note) VALUES (7, 'single')");
                statement.executeUpdate("INSERT INTO t_order (user_id, note) VALUES (1, 'a'), (2, 'b'), (3, 'c')");
            }
            LineContract.assertKeysOfWorkerSince(fixture.keys(LineFixture.ORDER), 4, held.get(0), before);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class Application {
    }
}
