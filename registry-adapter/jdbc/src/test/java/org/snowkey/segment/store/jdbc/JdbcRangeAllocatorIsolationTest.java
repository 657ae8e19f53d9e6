package org.snowkey.segment.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.lease.testing.StartValuesFixtures;
import org.snowkey.lease.store.jdbc.TestDatabase;
import org.snowkey.store.jdbc.JdbcTableName;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * A pool configured for REPEATABLE READ (or a database whose default is stricter than READ COMMITTED): on PostgreSQL
 * an allocation that queued behind another's row lock then fails with "could not serialize access due to concurrent
 * update" instead of advancing the row from its new value, so allocators of one key in different processes fail
 * each other's calls under contention. The allocation must not depend on the pool's isolation level.
 */
@Timeout(60)
class JdbcRangeAllocatorIsolationTest {

    private static final TestDatabase DATABASE = TestDatabase.POSTGRESQL;

    @Test
    void anAllocationQueuedBehindAnotherUnderRepeatableReadAdvancesFromTheNewValue() throws Exception {
        DATABASE.assumeAvailable();
        JdbcTableName table = TestDatabase.uniqueTable("seg");
        JdbcSegmentSettings settings = new JdbcSegmentSettings(table, true, 5_000L, DATABASE.url());
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(DATABASE.url());
        config.setUsername(DATABASE.username());
        config.setPassword(DATABASE.password());
        config.setMaximumPoolSize(2);
        config.setMinimumIdle(0);
        config.setTransactionIsolation("TRANSACTION_REPEATABLE_READ");
        try (HikariDataSource pool = new HikariDataSource(config); Connection other = DATABASE.connect(); Connection watcher = DATABASE.connect()) {
            JdbcRangeAllocator allocator = new JdbcRangeAllocator(pool, settings, "isolation-test", StartValuesFixtures.everyKeyAtOne());
            assertEquals(new NumberRange(1, 10), allocator.allocate("k", 10));
            // Another allocator's transaction holds the row, advanced by 5 and not committed yet.
            other.setAutoCommit(false);
            try (PreparedStatement advance = other.prepareStatement("UPDATE " + settings.table().value() + " SET next_value = next_value + 5 WHERE seq_key = 'k'")) {
                assertEquals(1, advance.executeUpdate());
            }
            CompletableFuture<NumberRange> queued = CompletableFuture.supplyAsync(() -> allocator.allocate("k", 10));
            awaitAnUpdateWaitingOnALock(watcher, settings.table().value());
            other.commit();
            assertEquals(new NumberRange(16, 25), queued.get(30, TimeUnit.SECONDS));
        } finally {
            DATABASE.dropQuietly(table);
            DATABASE.dropQuietly(settings.logTable());
        }
    }

    /** Polls the server (on an auto-commit connection: PostgreSQL keeps one activity snapshot per transaction) until the allocation's UPDATE waits on the row lock (the interleaving under test). */
    private static void awaitAnUpdateWaitingOnALock(final Connection connection, final String table) throws SQLException {
        try (PreparedStatement waiting = connection.prepareStatement(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE ? AND pid <> pg_backend_pid()")) {
            waiting.setString(1, "UPDATE " + table + " SET next_value = next_value + %");
            while (true) {
                try (ResultSet row = waiting.executeQuery()) {
                    row.next();
                    if (row.getLong(1) > 0) {
                        return;
                    }
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
        }
    }
}
