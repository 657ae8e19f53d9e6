package org.snowkey.lease.store;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * Values the JDBC row reader rejects as corrupt must not parse as a valid record from a ZooKeeper node either: the
 * same damaged record would otherwise be claimable in one registry and refused in the other.
 */
class LeaseRecordJsonStrictnessTest {

    private static byte[] record(final String workerId, final String fencingToken, final String expiresAt, final String reservedUntil) {
        return ("{\"pool\":\"p\",\"workerId\":" + workerId + ",\"owner\":\"o\",\"fencingToken\":" + fencingToken + ",\"expiresAt\":" + expiresAt
                + ",\"reservedUntil\":" + reservedUntil + ",\"state\":\"RELEASED\"}").getBytes(StandardCharsets.UTF_8);
    }

    /** Failed before 403965b: {@code (int) number(node, "workerId")} truncated 4294967301 to 5, which matched the node's number. */
    @Test
    void aWorkerIdBeyondTheIntRangeIsCorruptNotTruncated() {
        assertThrows(CorruptLeaseRecordException.class, () -> LeaseRecordJson.read("/p/workers/5", "p", 5, record("4294967301", "1", "1", "1")));
    }

    /** Failed before 403965b: a negative reservedUntil parsed, so the number was free from now; LeaseRowReader rejects it as corrupt. */
    @Test
    void aNegativeReservationIsCorrupt() {
        assertThrows(CorruptLeaseRecordException.class, () -> LeaseRecordJson.read("/p/workers/5", "p", 5, record("5", "1", "1", "-1")));
    }

    /** Failed before 403965b: a negative fencing token parsed; LeaseRowReader rejects it as corrupt. */
    @Test
    void aNegativeFencingTokenIsCorrupt() {
        assertThrows(CorruptLeaseRecordException.class, () -> LeaseRecordJson.read("/p/workers/5", "p", 5, record("5", "-9223372036854775808", "1", "1")));
    }
}
