package org.snowkey.segment.store.zookeeper;

import java.nio.charset.StandardCharsets;

import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.segment.store.RangeLogEntry;
import org.snowkey.store.zookeeper.json.JsonObject;
import org.snowkey.store.zookeeper.json.JsonObjectWriter;

/** A range log node's content: {@code {"first":..,"last":..,"owner":"..","time":<epoch ms>}}. */
final class RangeLogJson {

    private RangeLogJson() {
    }

    static byte[] write(final NumberRange range, final String owner, final long timeMillis) {
        return new JsonObjectWriter().field("first", range.first()).field("last", range.last()).field("owner", owner).field("time", timeMillis).toBytes();
    }

    /** @throws IllegalStateException naming the node and its content when it is no range entry (never skipped: it could hide an overlap) */
    static RangeLogEntry read(final String key, final String path, final byte[] data) {
        String text = data == null ? "" : new String(data, StandardCharsets.UTF_8);
        try {
            JsonObject node = JsonObject.parse(text);
            return new RangeLogEntry(key, new NumberRange(node.wholeNumber("first"), node.wholeNumber("last")), node.text("owner"), node.wholeNumber("time"));
        } catch (final IllegalArgumentException ex) {
            throw new IllegalStateException("SnowKey found a corrupt range log node " + path + ": '" + text + "' (" + ex.getMessage() + ")", ex);
        }
    }
}
