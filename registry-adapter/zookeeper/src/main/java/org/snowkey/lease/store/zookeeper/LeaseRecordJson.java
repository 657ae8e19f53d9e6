package org.snowkey.lease.store.zookeeper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.lease.store.CorruptLeaseRecordException;
import org.snowkey.lease.store.LayoutText;
import org.snowkey.lease.store.LeaseRecord;

/**
 * The JSON form of a lease record in a ZooKeeper node. Parsing is strict: a record with a missing or mistyped
 * field, or one that names another pool or number than its path, is corrupt and never treated as free, because
 * a guessed {@code reservedUntil} could let a successor issue timestamps its predecessor already used.
 */
final class LeaseRecordJson {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private LeaseRecordJson() {
    }

    static byte[] write(final LeaseRecord record) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("pool", record.pool());
        fields.put("workerId", record.workerId());
        fields.put("owner", record.owner());
        fields.put("fencingToken", record.fencingToken());
        fields.put("expiresAt", record.expiresAt());
        fields.put("reservedUntil", record.reservedUntil());
        fields.put("state", record.state().name());
        if (record.layout() != null) {
            fields.put("layout", record.layoutText());
        }
        try {
            return MAPPER.writeValueAsBytes(fields);
        } catch (final JsonProcessingException ex) {
            throw new IllegalStateException("cannot write lease record " + record, ex);
        }
    }

    /**
     * @param location the node, for the error
     * @throws CorruptLeaseRecordException when the data is not a complete record of this pool and number
     */
    static LeaseRecord read(final String location, final String pool, final int workerId, final byte[] data) {
        String content = data == null ? "" : new String(data, StandardCharsets.UTF_8);
        try {
            JsonNode node = MAPPER.readTree(content);
            if (node == null || !node.isObject()) {
                throw new IllegalArgumentException("not a JSON object");
            }
            // Every number is range-checked, as the JDBC store does: a truncated worker id could match another node's
            // number, and a negative reservation or token is damage, not a value to start a successor from.
            LeaseRecord record = new LeaseRecord(text(node, "pool"), (int) number(node, "workerId", Integer.MAX_VALUE), text(node, "owner"),
                    number(node, "fencingToken", Long.MAX_VALUE), number(node, "expiresAt", Long.MAX_VALUE), number(node, "reservedUntil", Long.MAX_VALUE),
                    LeaseRecord.State.valueOf(text(node, "state").toUpperCase(Locale.ROOT)), layout(node));
            if (!record.pool().equals(pool) || record.workerId() != workerId) {
                throw new IllegalArgumentException("the record names pool '" + record.pool() + "' and worker id " + record.workerId());
            }
            return record;
        } catch (final IOException | IllegalArgumentException ex) {
            throw new CorruptLeaseRecordException(location, content, ex);
        }
    }

    /** Absent in records written before SnowKey stored the layout: unknown, and the next writer adopts the number. */
    private static IdLayout layout(final JsonNode node) {
        return node.hasNonNull("layout") ? LayoutText.parse(text(node, "layout")) : null;
    }

    private static String text(final JsonNode node, final String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException("field '" + field + "' is missing or not text");
        }
        return value.asText();
    }

    private static long number(final JsonNode node, final String field, final long max) {
        JsonNode value = node.get(field);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new IllegalArgumentException("field '" + field + "' is missing or not a whole number");
        }
        long number = value.asLong();
        if (number < 0 || number > max) {
            throw new IllegalArgumentException("field '" + field + "' = " + number + " lies outside 0 to " + max);
        }
        return number;
    }
}
