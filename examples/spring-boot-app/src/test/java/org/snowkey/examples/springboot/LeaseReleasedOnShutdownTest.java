package org.snowkey.examples.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Closing the application releases the lease with the exact high-water mark: the ZooKeeper record (on a server that
 * outlives the application) says RELEASED with reservedUntil = the timestamp of the last order id.
 */
class LeaseReleasedOnShutdownTest {

    @Test
    void leaseIsReleasedWithTheHighWaterMarkWhenTheContextCloses() throws Exception {
        try (TestingServer zookeeper = new TestingServer(true)) {
            ConfigurableApplicationContext context = new SpringApplicationBuilder(OrdersApplication.class).run("--server.port=0",
                    "--example.zookeeper.embedded=false", "--snowkey.zookeeper.server-lists=" + zookeeper.getConnectString(),
                    "--snowkey.lease.pool=shutdown");
            SnowKeyIdGenerator snowKey = context.getBean(SnowKeyIdGenerator.class);
            int workerId = snowKey.leaseStatus().workerId();
            Http http = new Http(context.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
            long highest = Long.MIN_VALUE;
            for (int user = 1; user <= 20; user++) {
                Order order = http.post(new NewOrder(user, "pen"));
                highest = Math.max(highest, snowKey.decode(order.orderId()).timestamp().toEpochMilli());
            }
            assertThat(record(zookeeper, workerId).get("state").asText()).isEqualTo("HELD");

            context.close();

            JsonNode released = record(zookeeper, workerId);
            assertThat(released.get("state").asText()).isEqualTo("RELEASED");
            assertThat(released.get("reservedUntil").asLong()).isEqualTo(highest);
        }
    }

    private static JsonNode record(final TestingServer zookeeper, final int workerId) throws Exception {
        try (CuratorFramework client = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), new RetryOneTime(100))) {
            client.start();
            byte[] data = client.getData().forPath("/snowkey/snowkey/shutdown/workers/" + workerId);
            return new ObjectMapper().readTree(new String(data, StandardCharsets.UTF_8));
        }
    }
}
