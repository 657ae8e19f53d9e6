package org.snowkey.store.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** Whatever the writer writes, the parser reads back unchanged; what JSON forbids, the parser names. */
class JsonObjectRoundTripTest {

    @Test
    void everyStringAndLongSurvivesAWriteAndARead() {
        Random random = new Random(20261202L);
        for (int i = 0; i < 5_000; i++) {
            StringBuilder text = new StringBuilder();
            for (int n = random.nextInt(40); n > 0; n--) {
                int kind = random.nextInt(3);
                text.appendCodePoint(kind == 0 ? random.nextInt(0x80) : kind == 1 ? random.nextInt(0xD800) : 0x10000 + random.nextInt(0xFFFFF));
            }
            String value = text.toString();
            long number = random.nextLong();
            byte[] json = new JsonObjectWriter().field("text", value).field("number", number).field("none", null).toBytes();
            JsonObject read = JsonObject.parse(new String(json, StandardCharsets.UTF_8));
            assertEquals(value, read.text("text"));
            assertEquals(number, read.wholeNumber("number"));
            assertEquals(JsonObject.NULL, read.get("none"));
        }
    }

    @Test
    void escapesAreDecoded() {
        JsonObject read = JsonObject.parse("{\"s\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\u00E9\\ud83d\\ude00\"}");
        assertEquals("\"\\/\b\f\n\r\t\u00e9\u00e9\ud83d\ude00", read.text("s"));
    }

    @Test
    void theMessageNamesTheProblemAndItsPosition() {
        MalformedJsonException ex = assertThrows(MalformedJsonException.class, () -> JsonObject.parse("{\"a\":1,\"a\":2}"));
        assertEquals("malformed JSON at character 7: field 'a' appears more than once", ex.getMessage());
        ex = assertThrows(MalformedJsonException.class, () -> JsonObject.parse("{\"a\":tru}"));
        assertEquals("malformed JSON at character 5: a value was expected, found 'tru}'", ex.getMessage());
        ex = assertThrows(MalformedJsonException.class, () -> JsonObject.parse("{\"a\":1} {}"));
        assertTrue(ex.getMessage().contains("content after the end of the object"), ex.getMessage());
        ex = assertThrows(MalformedJsonException.class, () -> JsonObject.parse("{\"a\":-}"));
        assertTrue(ex.getMessage().contains("a digit was expected in a number"), ex.getMessage());
    }

    @Test
    void aNumberBeyondALongIsNamed() {
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> JsonObject.parse("{\"n\":9223372036854775808}").wholeNumber("n"));
        assertEquals("field 'n' = 9223372036854775808 lies beyond the range of a long", ex.getMessage());
        assertEquals(Long.MIN_VALUE, JsonObject.parse("{\"n\":-9223372036854775808}").wholeNumber("n"));
    }
}
