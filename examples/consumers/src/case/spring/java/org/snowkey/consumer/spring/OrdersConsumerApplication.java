package org.snowkey.consumer.spring;

import java.sql.Connection;
import java.sql.PreparedStatement;

import javax.sql.DataSource;

import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A user's Spring Boot application: its data source is ShardingSphere-JDBC's driver on a YAML file
 * ({@code spring.datasource.url}), whose key generator takes SnowKey's settings from {@code snowkey.*} properties.
 * At start-up it inserts rows without keys and is done; no web server.
 */
@SpringBootApplication
public class OrdersConsumerApplication {

    static final int ROWS = 40;

    @Bean
    CommandLineRunner insertOrders(final DataSource dataSource) {
        return args -> {
            try (Connection connection = dataSource.getConnection();
                 PreparedStatement insert = connection.prepareStatement("INSERT INTO t_order (user_id, note) VALUES (?, ?)")) {
                for (int i = 0; i < ROWS; i++) {
                    insert.setInt(1, i);
                    insert.setString(2, "row " + i);
                    insert.executeUpdate();
                }
            }
        };
    }
}
