package org.snowkey.examples.springboot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Orders over REST, keyed by SnowKey through ShardingSphere-JDBC. */
@SpringBootApplication
public class OrdersApplication {

    public static void main(final String[] args) {
        SpringApplication.run(OrdersApplication.class, args);
    }
}
