package org.snowkey.store.json;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes one JSON object (flat, unless nested objects or arrays of objects are added), compact and in the order the fields are added, as UTF-8. Strings escape {@code "},
 * {@code \} and the control characters below U+0020 ({@code \b \t \n \f \r}, the rest as a six-character backslash-u
 * escape with upper-case hex digits), and write the two halves of a character beyond U+FFFF as two such escapes (a lone half could not be encoded in
 * UTF-8 at all); every other character is written as itself. That is byte for byte the form lease records had
 * when Jackson wrote them, so nodes written before and after read the same.
 */
public final class JsonObjectWriter {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private final StringBuilder json = new StringBuilder("{");

    /** Adds a string field; a null value is written as JSON null. */
    public JsonObjectWriter field(final String name, final String value) {
        name(name);
        if (value == null) {
            json.append("null");
        } else {
            string(value);
        }
        return this;
    }

    public JsonObjectWriter field(final String name, final long value) {
        name(name);
        json.append(value);
        return this;
    }

    public JsonObjectWriter field(final String name, final boolean value) {
        name(name);
        json.append(value);
        return this;
    }

    /** Adds a nested object (the etcd store's requests nest; records stay flat). */
    public JsonObjectWriter object(final String name, final JsonObjectWriter object) {
        name(name);
        json.append(object);
        return this;
    }

    /** Adds an array of objects. */
    public JsonObjectWriter array(final String name, final List<JsonObjectWriter> objects) {
        name(name);
        json.append('[');
        for (int i = 0; i < objects.size(); i++) {
            if (i > 0) {
                json.append(',');
            }
            json.append(objects.get(i));
        }
        json.append(']');
        return this;
    }

    public byte[] toBytes() {
        return toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return json + "}";
    }

    private void name(final String name) {
        if (json.length() > 1) {
            json.append(',');
        }
        string(name);
        json.append(':');
    }

    private void string(final String value) {
        json.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"':
                    json.append("\\\"");
                    break;
                case '\\':
                    json.append("\\\\");
                    break;
                case '\b':
                    json.append("\\b");
                    break;
                case '\t':
                    json.append("\\t");
                    break;
                case '\n':
                    json.append("\\n");
                    break;
                case '\f':
                    json.append("\\f");
                    break;
                case '\r':
                    json.append("\\r");
                    break;
                default:
                    if (c < 0x20 || Character.isSurrogate(c)) {
                        json.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xF]).append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
                    } else {
                        json.append(c);
                    }
            }
        }
        json.append('"');
    }
}
