package org.snowkey.segment.store.zookeeper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.segment.store.RangeLogEntry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** A range log node's content: {@code {"first":..,"last":..,"owner":"..","time":<epoch ms>}}. */
final class RangeLogJson {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private RangeLogJson() {
    }

    static byte[] write(final NumberRange range, final String owner, final long timeMillis) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("first", range.first());
        node.put("last", range.last());
        node.put("owner", owner);
        node.put("time", timeMillis);
        return node.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** @throws IllegalStateException naming the node and its content when it is no range entry (never skipped: it could hide an overlap) */
    static RangeLogEntry read(final String key, final String path, final byte[] data) {
        String text = data == null ? "" : new String(data, StandardCharsets.UTF_8);
        try {
            JsonNode node = MAPPER.readTree(text);
            if (node == null || !node.path("first").canConvertToExactIntegral() || !node.path("last").canConvertToExactIntegral() || !node.path("owner").isTextual()
                    || !node.path("time").canConvertToExactIntegral()) {
                throw new IllegalArgumentException("fields first, last, time (integers) and owner (text) expected");
            }
            return new RangeLogEntry(key, new NumberRange(node.get("first").asLong(), node.get("last").asLong()), node.get("owner").asText(), node.get("time").asLong());
        } catch (final IOException | IllegalArgumentException ex) {
            throw new IllegalStateException("SnowKey found a corrupt range log node " + path + ": '" + text + "' (" + ex.getMessage() + ")", ex);
        }
    }
}
