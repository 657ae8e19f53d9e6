package org.snowkey.segment.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.lease.testing.StartValuesFixtures;
import org.snowkey.lease.store.jdbc.TestDatabase;
import org.snowkey.store.jdbc.JdbcTableName;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/** Errors name the tables, the URL without its credentials and the cause. */
class JdbcRangeAllocatorErrorsTest {

    private static final String SECRET = "hunter22secret";

    private static HikariDataSource pool(final String url, final long timeoutMillis) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(timeoutMillis);
        config.setInitializationFailTimeout(-1L);
        return new HikariDataSource(config);
    }

    @Test
    @Timeout(60)
    void aMissingTableWithoutCreationNamesTheTableTheUrlAndTheDdl() {
        TestDatabase.POSTGRESQL.assumeAvailable();
        // Trust authentication ignores the password, which lets the test put one in the URL.
        String url = TestDatabase.POSTGRESQL.url() + "?user=postgres&password=" + SECRET;
        JdbcTableName table = TestDatabase.uniqueTable("seg");
        try (HikariDataSource pool = pool(url, 10_000L)) {
            // No URL in the settings: it is learnt from the connection, and its password must not leak either.
            JdbcRangeAllocator allocator = new JdbcRangeAllocator(pool, new JdbcSegmentSettings(table, false, 5_000L, null), "solo", StartValuesFixtures.everyKeyAtOne());
            RangeUnavailableException missing = assertThrows(RangeUnavailableException.class, () -> allocator.allocate("k", 1));
            String message = missing.getMessage();
            assertTrue(message.contains("table " + table + " does not exist") && message.contains("127.0.0.1:5432/test")
                    && message.contains("CREATE TABLE IF NOT EXISTS " + table + " ("), message);
            assertFalse(message.contains(SECRET), message);
        }
    }

    @Test
    @Timeout(60)
    void anUnreachableDatabaseIsNamedWithoutItsPassword() {
        String url = "jdbc:postgresql://127.0.0.1:1/test?user=postgres&password=" + SECRET;
        try (HikariDataSource pool = pool(url, 500L)) {
            JdbcRangeAllocator allocator = new JdbcRangeAllocator(pool, new JdbcSegmentSettings(new JdbcTableName("snowkey_segment"), true, 1_000L, url), "solo",
                    StartValuesFixtures.everyKeyAtOne());
            RangeUnavailableException down = assertThrows(RangeUnavailableException.class, () -> allocator.allocate("k", 1));
            String message = down.getMessage();
            assertTrue(message.contains("jdbc:postgresql://127.0.0.1:1/test") && message.contains("snowkey_segment") && message.contains("'k'"), message);
            assertFalse(message.contains(SECRET) || String.valueOf(down.getCause()).contains(SECRET), message);
        }
    }

    @Test
    void aTableNameWithoutRoomForItsLogTableIsRefusedAtOnce() {
        String name = "t".repeat(62);
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                () -> new JdbcSegmentSettings(new JdbcTableName(name), true, 1_000L, null));
        assertTrue(tooLong.getMessage().contains(name + "_log"), tooLong.getMessage());
    }
}
