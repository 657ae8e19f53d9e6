package org.snowkey.examples.springboot;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;

/**
 * The example's HTTP API as a client sees it. Built on Spring Framework's RestClient and reading JSON trees with its
 * own mapper, so that the same tests run on Spring Boot 3 and 4 (Boot 4 moved TestRestTemplate and maps with Jackson 3).
 */
final class Http {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final RestClient client;

    Http(final int port) {
        client = RestClient.create("http://127.0.0.1:" + port);
    }

    RestClient client() {
        return client;
    }

    Order post(final NewOrder order) {
        return client.post().uri("/orders").contentType(MediaType.APPLICATION_JSON).body(order).retrieve().body(Order.class);
    }

    JsonNode get(final String path) {
        try {
            return JSON.readTree(client.get().uri(path).retrieve().body(String.class));
        } catch (final JsonProcessingException ex) {
            throw new AssertionError(path + " did not answer JSON", ex);
        }
    }
}
