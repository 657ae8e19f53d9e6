package org.snowkey.store.json;

import java.util.Collections;
import java.util.Map;

/**
 * One parsed JSON object: its field names and values. Values are {@link String}, {@link JsonNumber}, {@link Boolean},
 * {@link #NULL}, a nested {@code JsonObject} or a {@link java.util.List} of values. The typed getters are strict:
 * they never convert text to a number or a fraction to a whole number.
 */
public final class JsonObject {

    /** The JSON literal {@code null}, so that a field set to null and a missing field stay apart. */
    public static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    private final Map<String, Object> fields;

    JsonObject(final Map<String, Object> fields) {
        this.fields = Collections.unmodifiableMap(fields);
    }

    /** Parses {@code content}, which must be exactly one JSON object (whitespace around it allowed). */
    public static JsonObject parse(final String content) {
        return new JsonObjectParser(content).parseWholeContent();
    }

    /** Whether the field is present with a value other than {@code null}. */
    public boolean hasNonNull(final String name) {
        Object value = fields.get(name);
        return value != null && value != NULL;
    }

    /** @throws IllegalArgumentException naming the field when it is missing or not a string */
    public String text(final String name) {
        Object value = fields.get(name);
        if (!(value instanceof String)) {
            throw new IllegalArgumentException("field '" + name + "' is missing or not text");
        }
        return (String) value;
    }

    /** @throws IllegalArgumentException naming the field when it is missing, not an integer, or beyond the range of a long */
    public long wholeNumber(final String name) {
        Object value = fields.get(name);
        if (!(value instanceof JsonNumber) || !((JsonNumber) value).isWhole()) {
            throw new IllegalArgumentException("field '" + name + "' is missing or not a whole number");
        }
        try {
            return Long.parseLong(((JsonNumber) value).token());
        } catch (final NumberFormatException ex) {
            throw new IllegalArgumentException("field '" + name + "' = " + ((JsonNumber) value).token() + " lies beyond the range of a long", ex);
        }
    }

    /** The raw value of a field (see the class comment for its types), or null when the field is missing. */
    public Object get(final String name) {
        return fields.get(name);
    }

    @Override
    public String toString() {
        return fields.toString();
    }
}
