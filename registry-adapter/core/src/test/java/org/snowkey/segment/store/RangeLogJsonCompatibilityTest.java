package org.snowkey.segment.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.segment.NumberRange;

/** Range log nodes Jackson wrote ({@code ObjectNode.toString()}, captured from the old writer) read the same, and are written the same. */
class RangeLogJsonCompatibilityTest {

    private static final String JACKSON_ENTRY = "{\"first\":45,\"last\":54,\"owner\":\"intruder@host \\\"x\\\"\\\\\\u0000\",\"time\":1764669600123}";

    private static final String JACKSON_NULL_OWNER = "{\"first\":1,\"last\":1000,\"owner\":null,\"time\":0}";

    @Test
    void anEntryJacksonWroteReadsFieldForField() {
        RangeLogEntry entry = RangeLogJson.read("orders", "/log/orders/e-1", JACKSON_ENTRY.getBytes(StandardCharsets.UTF_8));
        assertEquals(new RangeLogEntry("orders", new NumberRange(45, 54), "intruder@host \"x\"\\\u0000", 1764669600123L), entry);
    }

    @Test
    void entriesAreWrittenByteForByteAsJacksonWroteThem() {
        assertArrayEquals(JACKSON_ENTRY.getBytes(StandardCharsets.UTF_8), RangeLogJson.write(new NumberRange(45, 54), "intruder@host \"x\"\\\u0000", 1764669600123L));
        assertArrayEquals(JACKSON_NULL_OWNER.getBytes(StandardCharsets.UTF_8), RangeLogJson.write(new NumberRange(1, 1000), null, 0));
    }

    @Test
    void unknownFieldsAndWhitespaceAreTolerated() {
        RangeLogEntry entry = RangeLogJson.read("orders", "/log/orders/e-1",
                " {\"time\" : 1764669600123,\n\"owner\":\"intruder@host \\\"x\\\"\\\\\\u0000\", \"first\":45, \"last\":54, \"host\":{\"pid\":[1]}}\n".getBytes(StandardCharsets.UTF_8));
        assertEquals(RangeLogJson.read("orders", "/log/orders/e-1", JACKSON_ENTRY.getBytes(StandardCharsets.UTF_8)), entry);
    }

    @Test
    void aMalformedOrIncompleteEntryNamesTheNodeAndItsContent() {
        for (String content : new String[] {JACKSON_NULL_OWNER, JACKSON_ENTRY.replace("45", "4.5"), JACKSON_ENTRY.replace("\"time\":1764669600123", "\"time\":\"1\""),
                JACKSON_ENTRY + ",", JACKSON_ENTRY.replace("54", "99999999999999999999"), "{"}) {
            IllegalStateException ex = assertThrows(IllegalStateException.class,
                    () -> RangeLogJson.read("orders", "/log/orders/e-1", content.getBytes(StandardCharsets.UTF_8)), content);
            assertTrue(ex.getMessage().startsWith("SnowKey found a corrupt range log entry /log/orders/e-1: '" + content + "'"), ex.getMessage());
        }
    }
}
