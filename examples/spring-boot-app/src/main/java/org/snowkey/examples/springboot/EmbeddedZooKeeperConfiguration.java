package org.snowkey.examples.springboot;

import org.snowkey.spring.SnowKeyIdGenerator;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AbstractDependsOnBeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Starts the embedded ZooKeeper before SnowKey leases from it (and so before the data source, which SnowKey starts
 * before), and stops it after SnowKey has released the lease.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "example.zookeeper.embedded", havingValue = "true", matchIfMissing = true)
public class EmbeddedZooKeeperConfiguration {

    @Bean
    public EmbeddedZooKeeper embeddedZooKeeper(@Value("${example.zookeeper.port}") final int port) throws Exception {
        return new EmbeddedZooKeeper(port);
    }

    @Bean
    static SnowKeyAfterEmbeddedZooKeeper snowKeyAfterEmbeddedZooKeeper() {
        return new SnowKeyAfterEmbeddedZooKeeper();
    }

    /** The generator bean depends on the server: created after it, destroyed before it. */
    static class SnowKeyAfterEmbeddedZooKeeper extends AbstractDependsOnBeanFactoryPostProcessor {

        SnowKeyAfterEmbeddedZooKeeper() {
            super(SnowKeyIdGenerator.class, EmbeddedZooKeeper.class);
        }
    }
}
