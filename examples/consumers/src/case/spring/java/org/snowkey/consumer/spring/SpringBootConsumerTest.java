package org.snowkey.consumer.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.layout.IdLayout;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Runs {@link OrdersConsumerApplication} in a project that has only the dependencies its pom declares (Spring Boot's
 * parent or BOM, snowkey-spring-boot-starter, shardingsphere-jdbc, H2): the starter leases a worker id from a JDBC
 * lease table in an H2 file, set by {@code snowkey.*} properties, and every key ShardingSphere wrote decodes to it.
 */
class SpringBootConsumerTest {

    private static final String POOL = "orders";

    private final Path work = Paths.get("target", "case-" + UUID.randomUUID().toString().substring(0, 8)).toAbsolutePath();

    @Test
    void keysComeFromTheStarterWithTheWorkerIdOfTheJdbcLease() throws Exception {
        Files.createDirectories(work);
        createPhysicalTables();
        SpringApplication application = new SpringApplicationBuilder(OrdersConsumerApplication.class).web(WebApplicationType.NONE)
                .properties("spring.datasource.driver-class-name=org.apache.shardingsphere.driver.ShardingSphereDriver",
                        "spring.datasource.url=jdbc:shardingsphere:absolutepath:" + writeYaml(),
                        "snowkey.lease.registry=jdbc",
                        "snowkey.lease.pool=" + POOL,
                        "snowkey.jdbc.url=" + leaseUrl(),
                        "snowkey.jdbc.username=sa")
                .build();
        List<Integer> heldWhileRunning;
        try (ConfigurableApplicationContext context = application.run()) {
            heldWhileRunning = heldInLeaseTable();
        }
        List<Long> keys = physicalKeys();
        assertEquals(OrdersConsumerApplication.ROWS, keys.size(), "rows in the physical tables");
        assertEquals(OrdersConsumerApplication.ROWS, new HashSet<>(keys).size(), "distinct keys");
        Set<Integer> workerIds = new HashSet<>();
        keys.forEach(key -> workerIds.add(IdLayout.defaults().decode(key).workerId()));
        assertEquals(1, workerIds.size(), "one worker id in every key: " + workerIds);
        int workerId = workerIds.iterator().next();
        assertEquals(List.of(workerId), heldWhileRunning, "the worker id the lease table held while the application ran");
        assertEquals(List.of(), heldInLeaseTable(), "leases held after the application closed");
        System.out.printf("consumer case Spring Boot %s, lease jdbc: %d keys, worker id %d%n", SpringBootVersion.getVersion(), keys.size(), workerId);
    }

    private String dataSourceUrl(final int ds) {
        return "jdbc:h2:file:" + work.resolve("ds_" + ds) + ";DATABASE_TO_UPPER=false;MODE=MySQL";
    }

    private String leaseUrl() {
        return "jdbc:h2:file:" + work.resolve("lease");
    }

    private void createPhysicalTables() throws Exception {
        for (int ds = 0; ds < 2; ds++) {
            try (Connection connection = DriverManager.getConnection(dataSourceUrl(ds), "sa", "");
                 Statement statement = connection.createStatement()) {
                for (int table = 0; table < 2; table++) {
                    statement.execute("CREATE TABLE t_order_" + table + " (order_id BIGINT PRIMARY KEY, user_id INT NOT NULL, note VARCHAR(50))");
                }
            }
        }
    }

    /** The key generator has no props: the starter gives it snowkey.*. */
    private Path writeYaml() throws Exception {
        StringBuilder yaml = new StringBuilder("databaseName: consumer\ndataSources:\n");
        for (int ds = 0; ds < 2; ds++) {
            yaml.append("  ds_").append(ds).append(":\n")
                    .append("    dataSourceClassName: com.zaxxer.hikari.HikariDataSource\n")
                    .append("    driverClassName: org.h2.Driver\n")
                    .append("    jdbcUrl: ").append(dataSourceUrl(ds)).append('\n')
                    .append("    username: sa\n")
                    .append("    password: ''\n");
        }
        yaml.append("rules:\n- !SHARDING\n  tables:\n    t_order:\n      actualDataNodes: ds_${0..1}.t_order_${0..1}\n")
                .append("      databaseStrategy:\n        standard:\n          shardingColumn: user_id\n          shardingAlgorithmName: by_user\n")
                .append("      tableStrategy:\n        standard:\n          shardingColumn: order_id\n          shardingAlgorithmName: by_id\n")
                .append("      keyGenerateStrategy:\n        column: order_id\n        keyGeneratorName: snowkey\n")
                .append("  shardingAlgorithms:\n")
                .append("    by_user:\n      type: INLINE\n      props:\n        algorithm-expression: ds_${user_id % 2}\n")
                .append("    by_id:\n      type: INLINE\n      props:\n        algorithm-expression: t_order_${order_id % 2}\n")
                .append("  keyGenerators:\n    snowkey:\n      type: IMPROVED_SNOWFLAKE\n");
        Path file = work.resolve("sharding.yaml");
        Files.write(file, yaml.toString().getBytes(StandardCharsets.UTF_8));
        return file;
    }

    private List<Long> physicalKeys() throws Exception {
        List<Long> keys = new ArrayList<>();
        for (int ds = 0; ds < 2; ds++) {
            try (Connection connection = DriverManager.getConnection(dataSourceUrl(ds), "sa", "");
                 Statement statement = connection.createStatement()) {
                for (int table = 0; table < 2; table++) {
                    try (ResultSet rows = statement.executeQuery("SELECT order_id FROM t_order_" + table)) {
                        while (rows.next()) {
                            keys.add(rows.getLong(1));
                        }
                    }
                }
            }
        }
        return keys;
    }

    private List<Integer> heldInLeaseTable() throws Exception {
        List<Integer> held = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(leaseUrl(), "sa", "");
             PreparedStatement select = connection.prepareStatement("SELECT worker_id FROM snowkey_worker_lease WHERE pool = ? AND state = 'HELD'")) {
            select.setString(1, POOL);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    held.add(rows.getInt(1));
                }
            }
        }
        return held;
    }
}
