package org.snowkey.examples.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.layout.DecodedId;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The example over HTTP: real ZooKeeper (embedded), real H2, real ShardingSphere driver. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
// Closed after the class: its ShardingSphere data source and lease must not linger into the next test class.
@DirtiesContext
class OrdersApplicationTest {

    @Autowired
    private TestRestTemplate http;

    @Autowired
    private SnowKeyIdGenerator snowKey;

    @DynamicPropertySource
    static void zookeeperPort(final DynamicPropertyRegistry registry) {
        int port = FreePorts.next();
        registry.add("example.zookeeper.port", () -> port);
    }

    @Test
    void ordersCreatedOverHttpGetSnowKeyIds() {
        int workerId = snowKey.leaseStatus().workerId();
        List<Long> ids = new ArrayList<>();
        for (int user = 1; user <= 4; user++) {
            ResponseEntity<Order> created = http.postForEntity("/orders", new NewOrder(user, "book " + user), Order.class);
            assertThat(created.getStatusCode()).isEqualTo(HttpStatus.CREATED);
            ids.add(created.getBody().orderId());
        }
        for (long id : ids) {
            DecodedId decoded = snowKey.decode(id);
            assertThat(decoded.workerId()).isEqualTo(workerId);
        }
        // Consecutive ids of the table alternate odd/even, so order_id % 2 fills both tables.
        assertThat(ids).extracting(id -> id % 2).contains(0L, 1L);
        assertThat(ids).isSorted().doesNotHaveDuplicates();
        // ShardingSphere's stream lives in the bean's scope.
        assertThat(snowKey.streams()).containsKey("orders.t_order");

        Order[] listed = http.getForObject("/orders", Order[].class);
        assertThat(listed).extracting(Order::orderId).containsAll(ids);
    }

    @Test
    void healthIsUpWithTheLeasedWorkerId() {
        JsonNode health = http.getForObject("/actuator/health", JsonNode.class);
        assertThat(health.get("status").asText()).isEqualTo("UP");
        JsonNode snowkey = health.get("components").get("snowkey");
        assertThat(snowkey.get("status").asText()).isEqualTo("UP");
        assertThat(snowkey.get("details").get("workerId").asInt()).isEqualTo(snowKey.leaseStatus().workerId()).isNotNegative();
        assertThat(snowkey.get("details").get("pool").asText()).isEqualTo("orders");
        assertThat(snowkey.get("details").get("registry").asText()).startsWith("zookeeper");
        assertThat(snowkey.get("details").get("leaseExpiresAt").asText()).isNotBlank();
        assertThat(snowkey.get("details").get("reservedCeiling").asText()).isNotBlank();
    }

    @Test
    void endpointShowsTheGeneratorAndDecodesAnId() {
        Order order = http.postForObject("/orders", new NewOrder(7, "lamp"), Order.class);

        JsonNode state = http.getForObject("/actuator/snowkey", JsonNode.class);
        assertThat(state.get("workerId").asInt()).isEqualTo(snowKey.leaseStatus().workerId());
        assertThat(state.get("pool").asText()).isEqualTo("orders");
        assertThat(state.get("idsIssued").asLong()).isPositive();
        assertThat(state.get("layout").get("workerIdBits").asInt()).isEqualTo(13);
        assertThat(state.has("timeCacheMillis")).isTrue();
        assertThat(state.get("leaseExpiresAt").asText()).isNotBlank();
        assertThat(state.get("reservedCeiling").asText()).isNotBlank();

        JsonNode decoded = http.getForObject("/actuator/snowkey/" + order.orderId(), JsonNode.class);
        assertThat(decoded.get("id").asLong()).isEqualTo(order.orderId());
        assertThat(decoded.get("workerId").asInt()).isEqualTo(snowKey.leaseStatus().workerId());
        assertThat(decoded.get("timestamp").asText()).isEqualTo(snowKey.decode(order.orderId()).timestamp().toString());
    }

    @Test
    void applicationIdsShareTheWorkerIdAndMetricsCountThem() {
        Long[] ids = http.getForObject("/ids?stream=invoices&count=3", Long[].class);
        assertThat(ids).hasSize(3).doesNotHaveDuplicates();
        assertThat(snowKey.decode(ids[0]).workerId()).isEqualTo(snowKey.leaseStatus().workerId());

        @SuppressWarnings("unchecked")
        Map<String, Object> metric = http.getForObject("/actuator/metrics/snowkey.ids.issued", Map.class);
        assertThat(metric).containsEntry("name", "snowkey.ids.issued");
    }
}
