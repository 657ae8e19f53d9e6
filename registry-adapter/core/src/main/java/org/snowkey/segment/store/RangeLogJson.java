package org.snowkey.segment.store;

import java.nio.charset.StandardCharsets;

import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.store.json.JsonObject;
import org.snowkey.store.json.JsonObjectWriter;

/** A range log entry's content (a ZooKeeper node, an etcd value): {@code {"first":..,"last":..,"owner":"..","time":<epoch ms>}}. */
public final class RangeLogJson {

    private RangeLogJson() {
    }

    public static byte[] write(final NumberRange range, final String owner, final long timeMillis) {
        return new JsonObjectWriter().field("first", range.first()).field("last", range.last()).field("owner", owner).field("time", timeMillis).toBytes();
    }

    /** @throws IllegalStateException naming the node and its content when it is no range entry (never skipped: it could hide an overlap)
     * @param path where the entry lives (a node path, an etcd key), for the error */
    public static RangeLogEntry read(final String key, final String path, final byte[] data) {
        String text = data == null ? "" : new String(data, StandardCharsets.UTF_8);
        try {
            JsonObject node = JsonObject.parse(text);
            return new RangeLogEntry(key, new NumberRange(node.wholeNumber("first"), node.wholeNumber("last")), node.text("owner"), node.wholeNumber("time"));
        } catch (final IllegalArgumentException ex) {
            throw new IllegalStateException("SnowKey found a corrupt range log entry " + path + ": '" + text + "' (" + ex.getMessage() + ")", ex);
        }
    }
}
