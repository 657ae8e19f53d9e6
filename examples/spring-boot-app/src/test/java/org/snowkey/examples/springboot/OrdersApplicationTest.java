package org.snowkey.examples.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.snowkey.keygen.layout.DecodedId;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The example over HTTP: real ZooKeeper (embedded), real H2, real ShardingSphere driver. The same class runs on Spring
 * Boot 3 (this module) and Spring Boot 4 (spring-boot4-app).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ExtendWith(OutputCaptureExtension.class)
// Closed after the class: its ShardingSphere data source and lease must not linger into the next test class.
@DirtiesContext
class OrdersApplicationTest {

    @LocalServerPort
    private int port;

    private Http http;

    @Autowired
    private SnowKeyIdGenerator snowKey;

    @DynamicPropertySource
    static void zookeeperPort(final DynamicPropertyRegistry registry) {
        int port = FreePorts.next();
        registry.add("example.zookeeper.port", () -> port);
    }

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    @Test
    void ordersCreatedOverHttpGetSnowKeyIds() {
        int workerId = snowKey.leaseStatus().workerId();
        List<Long> ids = new ArrayList<>();
        for (int user = 1; user <= 4; user++) {
            ResponseEntity<Order> created = http.client().post().uri("/orders").contentType(MediaType.APPLICATION_JSON)
                    .body(new NewOrder(user, "book " + user)).retrieve().toEntity(Order.class);
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

        Order[] listed = http.client().get().uri("/orders").retrieve().body(Order[].class);
        assertThat(listed).extracting(Order::orderId).containsAll(ids);
    }

    @Test
    void healthIsUpWithTheLeasedWorkerIdAndLogsNoFailure(final CapturedOutput output) {
        int before = output.getAll().length();
        JsonNode health = http.get("/actuator/health");
        assertThat(health.get("status").asText()).isEqualTo("UP");
        JsonNode snowkey = health.get("components").get("snowkey");
        assertThat(snowkey.get("status").asText()).isEqualTo("UP");
        assertThat(snowkey.get("details").get("workerId").asInt()).isEqualTo(snowKey.leaseStatus().workerId()).isNotNegative();
        assertThat(snowkey.get("details").get("pool").asText()).isEqualTo("orders");
        assertThat(snowkey.get("details").get("registry").asText()).startsWith("zookeeper");
        assertThat(snowkey.get("details").get("leaseExpiresAt").asText()).isNotBlank();
        assertThat(snowkey.get("details").get("reservedCeiling").asText()).isNotBlank();
        assertThat(output.getAll().substring(before)).as("logged by /actuator/health").doesNotContainIgnoringCase("health check failed")
                .doesNotContain("\tat ");
    }

    @Test
    void endpointShowsTheGeneratorAndDecodesAnId() {
        Order order = http.post(new NewOrder(7, "lamp"));

        JsonNode state = http.get("/actuator/snowkey");
        assertThat(state.get("workerId").asInt()).isEqualTo(snowKey.leaseStatus().workerId());
        assertThat(state.get("pool").asText()).isEqualTo("orders");
        assertThat(state.get("idsIssued").asLong()).isPositive();
        assertThat(state.get("layout").get("workerIdBits").asInt()).isEqualTo(13);
        assertThat(state.has("timeCacheMillis")).isTrue();
        assertThat(state.get("leaseExpiresAt").asText()).isNotBlank();
        assertThat(state.get("reservedCeiling").asText()).isNotBlank();

        JsonNode decoded = http.get("/actuator/snowkey/" + order.orderId());
        assertThat(decoded.get("id").asLong()).isEqualTo(order.orderId());
        assertThat(decoded.get("workerId").asInt()).isEqualTo(snowKey.leaseStatus().workerId());
        assertThat(decoded.get("timestamp").asText()).isEqualTo(snowKey.decode(order.orderId()).timestamp().toString());
    }

    @Test
    void applicationIdsShareTheWorkerIdAndMetricsCountThem() {
        Long[] ids = http.client().get().uri("/ids?stream=invoices&count=3").retrieve().body(Long[].class);
        assertThat(ids).hasSize(3).doesNotHaveDuplicates();
        assertThat(snowKey.decode(ids[0]).workerId()).isEqualTo(snowKey.leaseStatus().workerId());

        JsonNode metric = http.get("/actuator/metrics/snowkey.ids.issued");
        assertThat(metric.get("name").asText()).isEqualTo("snowkey.ids.issued");
        assertThat(metric.get("measurements").get(0).get("value").asDouble()).isGreaterThanOrEqualTo(3);
    }

    @Test
    void segmentNumbersAreDenseAndShowInHealthEndpointAndMetrics() {
        Long[] first = http.client().get().uri("/numbers?sequence=receipts&count=3").retrieve().body(Long[].class);
        Long[] next = http.client().get().uri("/numbers?sequence=receipts").retrieve().body(Long[].class);
        assertThat(first).containsExactly(1L, 2L, 3L);
        assertThat(next).containsExactly(4L);

        JsonNode segments = http.get("/actuator/health").get("components").get("snowkey").get("details").get("segments");
        assertThat(segments).isNotNull();
        assertThat(segments.findValuesAsText("key")).contains("receipts");
        JsonNode state = http.get("/actuator/snowkey");
        assertThat(state.get("segments").findValuesAsText("key")).contains("receipts");
        JsonNode metric = http.get("/actuator/metrics/snowkey.segment.keys.issued?tag=key:receipts");
        assertThat(metric.get("measurements").get(0).get("value").asDouble()).isEqualTo(4);
    }
}
