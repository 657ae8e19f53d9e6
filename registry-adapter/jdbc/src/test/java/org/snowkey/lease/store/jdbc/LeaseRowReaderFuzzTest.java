package org.snowkey.lease.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Proxy;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.snowkey.lease.store.CorruptLeaseRecordException;
import org.snowkey.lease.store.StoredLease;
import org.snowkey.lease.testing.TestScope;

/**
 * Random and damaged rows (NULLs, wrong types, huge and negative numbers, unicode, huge texts) fed to the JDBC store's
 * row reader: either a lease with non-negative numbers comes out, or a {@link CorruptLeaseRecordException} quoting
 * the row; never another exception.
 */
class LeaseRowReaderFuzzTest {

    private static final List<String> WEIRD = List.of("", " ", "null", "-1", "1.5", "1e3", "0x10", "99999999999999999999", "9223372036854775807",
            "-9223372036854775808", "2147483648", "HELD", "released", "held ", "\u00e9\u4e2d\ud83d\ude00", "x".repeat(100_000), " 42 ", "+7", "\u0000");

    /** Damaged layouts (column id_layout): out of range, malformed, another format. */
    private static final List<String> LAYOUTS = List.of("worker-id-bits=22,sequence-low-bits=1,epoch=2025-01-01T00:00:00Z",
            "worker-id-bits=13,sequence-low-bits=10,epoch=2025-01-01T00:00:00Z", "worker-id-bits=13,sequence-low-bits=1,epoch=yesterday",
            "worker-id-bits=13,sequence-low-bits=1,epoch=1969-12-31T23:59:59Z", "worker-id-bits=13,sequence-low-bits=1", "13/1/1735689600000",
            "worker-id-bits=99,sequence-low-bits=99,epoch=" + "9".repeat(40), "  worker-id-bits=1,sequence-low-bits=0,epoch=2025-01-01T00:00:00Z  ");

    @Test
    void randomAndDamagedRowsParseOrAreReportedCorrupt() throws SQLException {
        Random random = new Random(7L);
        int accepted = 0;
        for (int i = 0; i < TestScope.fuzzCases(20_000); i++) {
            String[] row = {"fuzz", "3", "owner", "4", "2", "1700000000000", "1700000000000", random.nextBoolean() ? "HELD" : "RELEASED",
                random.nextBoolean() ? null : "worker-id-bits=13,sequence-low-bits=1,epoch=2025-01-01T00:00:00Z"};
            if (random.nextInt(4) == 0) {
                row[8] = LAYOUTS.get(random.nextInt(LAYOUTS.size()));
            }
            int damaged = 1 + random.nextInt(3);
            for (int d = 0; d < damaged; d++) {
                row[random.nextInt(row.length)] = random.nextInt(5) == 0 ? null : WEIRD.get(random.nextInt(WEIRD.size()));
            }
            StoredLease lease;
            try {
                lease = LeaseRowReader.read(resultSet(row), "table snowkey_worker_lease row (fuzz, 3)", true);
            } catch (final CorruptLeaseRecordException ex) {
                assertFalse(ex.getMessage() == null || ex.getMessage().isBlank());
                continue;
            } catch (final RuntimeException ex) {
                fail("not a CorruptLeaseRecordException for row " + String.join("|", abbreviate(row)), ex);
                return;
            }
            accepted++;
            assertTrue(lease.record().workerId() >= 0 && lease.record().reservedUntil() >= 0 && lease.record().expiresAt() >= 0
                    && lease.record().fencingToken() >= 0 && lease.storeVersion() >= 0, lease.toString());
        }
        System.out.printf("row fuzz: %d rows accepted of 20000%n", accepted);
    }

    private static String[] abbreviate(final String[] row) {
        String[] result = new String[row.length];
        for (int i = 0; i < row.length; i++) {
            result[i] = row[i] == null ? "NULL" : row[i].length() > 50 ? row[i].substring(0, 50) + "..." : row[i];
        }
        return result;
    }

    static ResultSet resultSet(final String[] row) {
        return (ResultSet) Proxy.newProxyInstance(LeaseRowReaderFuzzTest.class.getClassLoader(), new Class<?>[] {ResultSet.class}, (proxy, method, args) -> {
            if (method.getName().equals("getString") && args.length == 1 && args[0] instanceof Integer index) {
                return row[index - 1];
            }
            throw new UnsupportedOperationException(method.getName());
        });
    }
}
