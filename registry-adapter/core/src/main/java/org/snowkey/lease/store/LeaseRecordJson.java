package org.snowkey.lease.store;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.store.json.JsonObject;
import org.snowkey.store.json.JsonObjectWriter;

/**
 * The JSON form of a lease record, as a ZooKeeper node and an etcd key hold it. Parsing is strict: a record with a missing or mistyped
 * field, or one that names another pool or number than its path, is corrupt and never treated as free, because
 * a guessed {@code reservedUntil} could let a successor issue timestamps its predecessor already used.
 */
public final class LeaseRecordJson {

    private LeaseRecordJson() {
    }

    public static byte[] write(final LeaseRecord record) {
        JsonObjectWriter json = new JsonObjectWriter().field("pool", record.pool()).field("workerId", record.workerId()).field("owner", record.owner())
                .field("fencingToken", record.fencingToken()).field("expiresAt", record.expiresAt()).field("reservedUntil", record.reservedUntil())
                .field("state", record.state().name());
        if (record.layout() != null) {
            json.field("layout", record.layoutText());
        }
        if (record.incarnation() != null) {
            json.field("incarnation", record.incarnation());
        }
        return json.toBytes();
    }

    /**
     * @param location the node, for the error
     * @throws CorruptLeaseRecordException when the data is not a complete record of this pool and number
     */
    public static LeaseRecord read(final String location, final String pool, final int workerId, final byte[] data) {
        String content = data == null ? "" : new String(data, StandardCharsets.UTF_8);
        try {
            JsonObject node = JsonObject.parse(content);
            // Every number is range-checked, as the JDBC store does: a truncated worker id could match another node's
            // number, and a negative reservation or token is damage, not a value to start a successor from.
            LeaseRecord record = new LeaseRecord(node.text("pool"), (int) number(node, "workerId", Integer.MAX_VALUE), node.text("owner"),
                    number(node, "fencingToken", Long.MAX_VALUE), number(node, "expiresAt", Long.MAX_VALUE), number(node, "reservedUntil", Long.MAX_VALUE),
                    LeaseRecord.State.valueOf(node.text("state").toUpperCase(Locale.ROOT)), layout(node), incarnation(node));
            if (!record.pool().equals(pool) || record.workerId() != workerId) {
                throw new IllegalArgumentException("the record names pool '" + record.pool() + "' and worker id " + record.workerId());
            }
            return record;
        } catch (final IllegalArgumentException ex) {
            throw new CorruptLeaseRecordException(location, content, ex);
        }
    }

    /** Absent in records written before SnowKey stored the layout: unknown, and the next writer adopts the number. */
    private static IdLayout layout(final JsonObject node) {
        return node.hasNonNull("layout") ? LayoutText.parse(node.text("layout")) : null;
    }

    /**
     * Absent in records of SnowKey versions before it: such a record is judged by its other fields when a lease checks
     * whether it is its own claim (LeaseRecord.isExactly). Present, it must be non-blank text.
     */
    private static String incarnation(final JsonObject node) {
        if (!node.hasNonNull("incarnation")) {
            return null;
        }
        String incarnation = node.text("incarnation");
        if (incarnation.isBlank()) {
            throw new IllegalArgumentException("field 'incarnation' is blank");
        }
        return incarnation;
    }

    private static long number(final JsonObject node, final String field, final long max) {
        long number = node.wholeNumber(field);
        if (number < 0 || number > max) {
            throw new IllegalArgumentException("field '" + field + "' = " + number + " lies outside 0 to " + max);
        }
        return number;
    }
}
