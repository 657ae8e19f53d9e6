package org.snowkey.lease.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * Lease nodes written while the store used Jackson ({@code ObjectMapper.writeValueAsBytes} of the same fields) read
 * to the same records with the hand-written JSON code, and records written now are byte for byte what Jackson wrote,
 * so a rolling upgrade mixes old and new instances on one ensemble. The literals below are Jackson's output, captured
 * from the old writer.
 */
class LeaseRecordJsonCompatibilityTest {

    /** Jackson's bytes for a held record with a layout and an owner full of characters that need escaping. */
    private static final String JACKSON_HELD = "{\"pool\":\"orders\",\"workerId\":7,\"owner\":\"host-1:4242:\\\"q\\\"\\\\ \\t\\n\\r\\b\\f\\u0001\\u001F\u007f/\u00e9\u4e2d\\uD83D\\uDE00\","
            + "\"fencingToken\":3,\"expiresAt\":1764669600000,\"reservedUntil\":1764669605000,\"state\":\"HELD\","
            + "\"layout\":\"worker-id-bits=10,sequence-low-bits=2,epoch=2024-06-01T00:00:00Z\"}";

    private static final String OWNER = "host-1:4242:\"q\"\\ \t\n\r\b\f\u0001\u001f\u007f/\u00e9\u4e2d\ud83d\ude00";

    /** Jackson's bytes for a released record written before SnowKey stored the layout. */
    private static final String JACKSON_RELEASED = "{\"pool\":\"default\",\"workerId\":0,\"owner\":\"app@10.0.0.5\",\"fencingToken\":9223372036854775807,"
            + "\"expiresAt\":0,\"reservedUntil\":1764669605000,\"state\":\"RELEASED\"}";

    private static LeaseRecord read(final String pool, final int workerId, final String json) {
        return LeaseRecordJson.read("/snowkey/" + pool + "/workers/" + workerId, pool, workerId, json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aHeldRecordJacksonWroteReadsFieldForField() {
        LeaseRecord record = read("orders", 7, JACKSON_HELD);
        assertEquals(new LeaseRecord("orders", 7, OWNER, 3, 1764669600000L, 1764669605000L, LeaseRecord.State.HELD, record.layout()), record);
        assertEquals("worker-id-bits=10,sequence-low-bits=2,epoch=2024-06-01T00:00:00Z", record.layoutText());
    }

    @Test
    void aRecordWithoutLayoutJacksonWroteReadsWithAnUnknownLayout() {
        LeaseRecord record = read("default", 0, JACKSON_RELEASED);
        assertEquals(new LeaseRecord("default", 0, "app@10.0.0.5", Long.MAX_VALUE, 0, 1764669605000L, LeaseRecord.State.RELEASED), record);
        assertNull(record.layout());
    }

    @Test
    void recordsAreWrittenByteForByteAsJacksonWroteThem() {
        LeaseRecord held = new LeaseRecord("orders", 7, OWNER, 3, 1764669600000L, 1764669605000L, LeaseRecord.State.HELD,
                LayoutText.parse("worker-id-bits=10,sequence-low-bits=2,epoch=2024-06-01T00:00:00Z"));
        assertArrayEquals(JACKSON_HELD.getBytes(StandardCharsets.UTF_8), LeaseRecordJson.write(held));
        LeaseRecord released = new LeaseRecord("default", 0, "app@10.0.0.5", Long.MAX_VALUE, 0, 1764669605000L, LeaseRecord.State.RELEASED);
        assertArrayEquals(JACKSON_RELEASED.getBytes(StandardCharsets.UTF_8), LeaseRecordJson.write(released));
    }

    @Test
    void theIncarnationIsWrittenLastReadBackAndAbsentInOlderRecords() {
        LeaseRecord held = new LeaseRecord("orders", 7, "app", 3, 1764669600000L, 1764669605000L, LeaseRecord.State.HELD,
                LayoutText.parse("worker-id-bits=10,sequence-low-bits=2,epoch=2024-06-01T00:00:00Z"), "4f1c6d0e-1f7e-4a59-9a53-0c3c2a3c9b11");
        String json = new String(LeaseRecordJson.write(held), StandardCharsets.UTF_8);
        // Older SnowKey versions skip fields they do not know, so they still read this record (whitespaceFieldOrder... below).
        assertTrue(json.endsWith(",\"incarnation\":\"4f1c6d0e-1f7e-4a59-9a53-0c3c2a3c9b11\"}"), json);
        assertEquals(held, read("orders", 7, json));
        assertNull(read("default", 0, JACKSON_RELEASED).incarnation(), "records of older versions carry none");
        assertThrows(CorruptLeaseRecordException.class, () -> read("orders", 7, json.replace("4f1c6d0e-1f7e-4a59-9a53-0c3c2a3c9b11", " ")));
        assertThrows(CorruptLeaseRecordException.class, () -> read("orders", 7, json.replace("\"4f1c6d0e-1f7e-4a59-9a53-0c3c2a3c9b11\"", "7")));
    }

    @Test
    void whitespaceFieldOrderUnknownFieldsAndANullLayoutAreTolerated() {
        String json = "\r\n {\n  \"state\" : \"released\",\t\"extra\": {\"nested\": [1, 2.5e3, true, false, null, \"x\", {}]},\n"
                + "  \"reservedUntil\": 1764669605000, \"expiresAt\": 0, \"fencingToken\": 9223372036854775807, \"owner\": \"app@10.0.0.5\",\n"
                + "  \"workerId\": 0, \"pool\": \"default\", \"layout\": null, \"future\": -1.5E-3, \"flag\": false, \"note\": \"\\/\\u00e9\"\n} \n";
        assertEquals(read("default", 0, JACKSON_RELEASED), read("default", 0, json));
    }

    @Test
    void malformedContentIsACorruptRecordNamingWhatAndWhere() {
        String[] malformed = {"", "   ", "[]", "\"HELD\"", JACKSON_RELEASED + "x", JACKSON_RELEASED + "{}", JACKSON_RELEASED.substring(0, 40),
                JACKSON_RELEASED.replace("\"workerId\":0", "\"workerId\":0,\"workerId\":0"), JACKSON_RELEASED.replace("app@", "app\\x@"),
                JACKSON_RELEASED.replace("app@", "app\u0001@"), JACKSON_RELEASED.replace("\"expiresAt\":0", "\"expiresAt\":00"),
                JACKSON_RELEASED.replace("\"expiresAt\":0", "\"expiresAt\":+1"), JACKSON_RELEASED.replace(",\"state\"", ",,\"state\""),
                JACKSON_RELEASED.replace("\"pool\"", "pool"), JACKSON_RELEASED.replace("app@", "app\\u12G4@"), "{\"a\":" + "[".repeat(10_000)};
        for (String content : malformed) {
            CorruptLeaseRecordException ex = assertThrows(CorruptLeaseRecordException.class, () -> read("default", 0, content), content);
            assertTrue(ex.getMessage().contains("/snowkey/default/workers/0"), ex.getMessage());
            assertTrue(ex.getCause().getMessage().contains("malformed JSON at character") || ex.getCause().getMessage().contains("empty"), ex.getCause().getMessage());
        }
    }

    @Test
    void aFractionOrExponentIsNoWholeNumber() {
        for (String number : new String[] {"0.0", "0e0", "1E3"}) {
            CorruptLeaseRecordException ex = assertThrows(CorruptLeaseRecordException.class,
                    () -> read("default", 0, JACKSON_RELEASED.replace("\"expiresAt\":0", "\"expiresAt\":" + number)));
            assertTrue(ex.getCause().getMessage().contains("field 'expiresAt' is missing or not a whole number"), ex.getCause().getMessage());
        }
    }
}
