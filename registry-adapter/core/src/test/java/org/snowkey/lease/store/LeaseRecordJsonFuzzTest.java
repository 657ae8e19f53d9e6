package org.snowkey.lease.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.snowkey.lease.testing.TestScope;

/**
 * Random, truncated, mistyped and huge lease records fed to the ZooKeeper store's JSON parsing: either a record of
 * the node's own pool and number comes out, or a {@link CorruptLeaseRecordException} with the location and content;
 * never another exception.
 */
class LeaseRecordJsonFuzzTest {

    private static final String POOL = "fuzz";

    private static final int WORKER_ID = 5;

    static final List<String> WEIRD_VALUES = List.of("null", "true", "\"\"", "\"5\"", "5.5", "-1", "1e30", "99999999999999999999999", "-9223372036854775809",
            "9223372036854775807", "-9223372036854775808", "4294967301", "[]", "{}", "[5]", "\"\\u0000\"", "\"\u00e9\u4e2d\ud83d\ude00\"", "\"HELD\"",
            "\"released\"", "\"" + "x".repeat(100_000) + "\"", "0", "5");

    @Test
    void randomAndDamagedRecordsParseOrAreReportedCorrupt() {
        Random random = new Random(20261130L);
        List<String> accepted = new ArrayList<>();
        for (int i = 0; i < TestScope.fuzzCases(20_000); i++) {
            String content = damaged(random);
            LeaseRecord record;
            try {
                record = LeaseRecordJson.read("/fuzz/" + WORKER_ID, POOL, WORKER_ID, content == null ? null : content.getBytes(StandardCharsets.UTF_8));
            } catch (final CorruptLeaseRecordException ex) {
                assertNotNull(ex.getMessage());
                assertFalse(ex.getMessage().isBlank());
                continue;
            } catch (final RuntimeException ex) {
                fail("not a CorruptLeaseRecordException for content '" + abbreviate(content) + "'", ex);
                return;
            }
            assertEquals(POOL, record.pool());
            assertEquals(WORKER_ID, record.workerId());
            accepted.add(content);
        }
        System.out.printf("JSON fuzz: %d records accepted of 20000%n", accepted.size());
    }

    static String valid(final Random random) {
        return "{\"pool\":\"" + POOL + "\",\"workerId\":" + WORKER_ID + ",\"owner\":\"o" + random.nextInt(9) + "\",\"fencingToken\":" + random.nextInt(100)
                + ",\"expiresAt\":" + (1_700_000_000_000L + random.nextInt(1_000_000)) + ",\"reservedUntil\":" + (1_700_000_000_000L + random.nextInt(1_000_000))
                + ",\"state\":\"" + (random.nextBoolean() ? "HELD" : "RELEASED") + "\"}";
    }

    static String damaged(final Random random) {
        String valid = valid(random);
        String[] fields = {"pool", "workerId", "owner", "fencingToken", "expiresAt", "reservedUntil", "state"};
        switch (random.nextInt(7)) {
            case 0:
                return valid.substring(0, random.nextInt(valid.length()));
            case 1: {
                String field = fields[random.nextInt(fields.length)];
                return valid.replaceFirst("\"" + field + "\":(\"[^\"]*\"|-?\\d+)", java.util.regex.Matcher.quoteReplacement("\"" + field + "\":"
                        + WEIRD_VALUES.get(random.nextInt(WEIRD_VALUES.size()))));
            }
            case 2: {
                String field = fields[random.nextInt(fields.length)];
                return valid.replaceFirst("\"" + field + "\":(\"[^\"]*\"|-?\\d+),?", "");
            }
            case 3: {
                byte[] bytes = new byte[random.nextInt(64)];
                random.nextBytes(bytes);
                return new String(bytes, StandardCharsets.ISO_8859_1);
            }
            case 4: {
                char[] chars = valid.toCharArray();
                for (int n = 0; n < 3; n++) {
                    chars[random.nextInt(chars.length)] = (char) random.nextInt(0x3000);
                }
                return new String(chars);
            }
            case 5:
                return random.nextBoolean() ? null : WEIRD_VALUES.get(random.nextInt(WEIRD_VALUES.size()));
            default:
                return valid + (random.nextBoolean() ? "" : ",\"extra\":" + WEIRD_VALUES.get(random.nextInt(WEIRD_VALUES.size())));
        }
    }

    private static String abbreviate(final String content) {
        return content == null ? "null" : content.length() > 300 ? content.substring(0, 300) + "..." : content;
    }
}
