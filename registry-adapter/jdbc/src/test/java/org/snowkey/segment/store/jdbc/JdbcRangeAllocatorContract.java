package org.snowkey.segment.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.RangeAllocator;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.keygen.segment.StartValues;
import org.snowkey.lease.testing.StartValuesFixtures;
import org.snowkey.lease.store.jdbc.TestDatabase;
import org.snowkey.segment.store.AbstractRangeAllocatorContractTest;
import org.snowkey.segment.store.RangeLog;
import org.snowkey.segment.store.RangeLogEntry;
import org.snowkey.store.jdbc.JdbcTableName;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/** The allocator contract on a database; a server that is not reachable skips its tests with the reason (fails under CI=true). */
abstract class JdbcRangeAllocatorContract extends AbstractRangeAllocatorContractTest {

    private final TestDatabase database;

    private JdbcSegmentSettings settings;

    JdbcRangeAllocatorContract(final TestDatabase database) {
        this.database = database;
    }

    @BeforeEach
    void freshTables() {
        database.assumeAvailable();
        JdbcTableName table = TestDatabase.uniqueTable("seg");
        settings = new JdbcSegmentSettings(table, true, 5_000L, database.url());
        // Registered first, so dropped after every pool has closed.
        closeLater(() -> {
            database.dropQuietly(table);
            database.dropQuietly(settings.logTable());
        });
    }

    /** A pool of its own per allocator, as a separate process would have. */
    HikariDataSource pool() {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database.url());
        config.setUsername(database.username());
        config.setPassword(database.password());
        config.setMaximumPoolSize(3);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(10_000L);
        return closeLater(new HikariDataSource(config));
    }

    JdbcSegmentSettings settings() {
        return settings;
    }

    @Override
    protected RangeAllocator open(final String owner, final StartValues starts) {
        return new JdbcRangeAllocator(pool(), settings, owner, starts);
    }

    @Override
    protected RangeAllocator openLosingNextAnswer(final String owner) {
        return new JdbcRangeAllocator(FaultyDataSources.losingNextCommit(pool()), settings, owner, StartValuesFixtures.everyKeyAtOne());
    }

    /**
     * A transaction that advanced the counter and then failed, with its rollback failing too, leaves nothing applied: the
     * next range starts right after the last one handed out. Switching auto-commit back on would have committed the
     * advance (a range gone without its log row, and "all of it or none" broken).
     */
    @Test
    void aTransactionWhoseRollbackFailsIsNotCommitted() {
        RangeAllocator healthy = open("healthy", StartValuesFixtures.everyKeyAtOne());
        NumberRange first = healthy.allocate("orders", 10);
        RangeAllocator failing = new JdbcRangeAllocator(FaultyDataSources.failingLogRowsAndRollbacks(pool(), settings.logTable().value()), settings, "failing",
                StartValuesFixtures.everyKeyAtOne());
        RangeUnavailableException failed = assertThrows(RangeUnavailableException.class, () -> failing.allocate("orders", 10));
        assertTrue(failed.getMessage().contains("log row's INSERT failed"), failed.getMessage());
        NumberRange next = healthy.allocate("orders", 10);
        assertEquals(first.last() + 1, next.first(), "the failed transaction's advance of the counter was committed");
        assertEquals(List.of(first, next), log().recent("orders", 10).stream().map(RangeLogEntry::range).toList(), "the log holds exactly the ranges handed out");
    }

    @Override
    protected void deleteCounterByHand(final String key) {
        database.execute("DELETE FROM " + settings.table() + " WHERE seq_key = '" + key.replace("'", "''") + "'");
    }

    @Override
    protected RangeLog log() {
        return new JdbcRangeLog(pool(), settings);
    }
}
