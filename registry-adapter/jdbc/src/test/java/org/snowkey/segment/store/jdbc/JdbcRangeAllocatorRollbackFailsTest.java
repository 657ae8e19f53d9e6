package org.snowkey.segment.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.lease.store.jdbc.TestDatabase;
import org.snowkey.lease.testing.StartValuesFixtures;
import org.snowkey.segment.store.RangeLogEntry;
import org.snowkey.store.jdbc.JdbcTableName;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * An allocation whose log row fails and whose rollback fails too, the faults inside the driver under HikariCP, with
 * SQLStates HikariCP does not take for a broken connection (a duplicate key, HY000): nothing of it is ever committed,
 * and the counter row is not left locked. HikariCP retries such a rollback on close, fails again, and puts the
 * connection back idle with its transaction open; the next borrower that switched auto-commit on committed it.
 * JdbcSegmentTables now evicts a connection whose rollback failed, and rolls back a borrowed connection in manual-commit
 * mode before switching auto-commit on. A server that is not reachable skips with the reason (fails under CI=true).
 */
class JdbcRangeAllocatorRollbackFailsTest {

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private JdbcSegmentSettings settings(final TestDatabase database) {
        database.assumeAvailable();
        JdbcTableName table = TestDatabase.uniqueTable("seg");
        JdbcSegmentSettings settings = new JdbcSegmentSettings(table, true, 5_000L, database.url());
        toClose.add(() -> {
            database.dropQuietly(table);
            database.dropQuietly(settings.logTable());
        });
        return settings;
    }

    private HikariDataSource pool(final DataSource driver) {
        HikariConfig config = new HikariConfig();
        config.setDataSource(driver);
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(10_000L);
        config.setAutoCommit(true);
        HikariDataSource pool = new HikariDataSource(config);
        toClose.add(pool);
        return pool;
    }

    /** {@link FaultyDataSources#failingLogRowsAndRollbacks} inside the pool: on the driver's connections. */
    private static DataSource faultyDriver(final TestDatabase database, final String logTable, final AtomicBoolean armed) {
        return FaultyDataSources.failingLogRowsAndRollbacks(FaultyDataSources.connecting(database), logTable, armed);
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aFailedAllocationIsNotCommittedByTheNextBorrowerOfItsConnection(final TestDatabase database) {
        JdbcSegmentSettings settings = settings(database);
        AtomicBoolean armed = new AtomicBoolean(false);
        JdbcRangeAllocator allocator = new JdbcRangeAllocator(pool(faultyDriver(database, settings.logTable().value(), armed)), settings, "one",
                StartValuesFixtures.everyKeyAtOne());
        NumberRange first = allocator.allocate("orders", 10);
        armed.set(true);
        assertThrows(RangeUnavailableException.class, () -> allocator.allocate("orders", 10));
        armed.set(false);
        NumberRange next = allocator.allocate("orders", 10);
        assertEquals(first.last() + 1, next.first(), "the failed allocation's advance of the counter was committed (by the next borrower's setAutoCommit(true))");
        assertEquals(List.of(first, next), new JdbcRangeLog(pool(faultyDriver(database, settings.logTable().value(), new AtomicBoolean())), settings)
                .recent("orders", 10).stream().map(RangeLogEntry::range).toList());
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aFailedAllocationDoesNotLeaveTheRowLockedInTheIdlePool(final TestDatabase database) {
        JdbcSegmentSettings settings = settings(database);
        AtomicBoolean armed = new AtomicBoolean(false);
        JdbcRangeAllocator failing = new JdbcRangeAllocator(pool(faultyDriver(database, settings.logTable().value(), armed)), settings, "failing",
                StartValuesFixtures.everyKeyAtOne());
        NumberRange first = failing.allocate("orders", 10);
        armed.set(true);
        assertThrows(RangeUnavailableException.class, () -> failing.allocate("orders", 10));
        // Another process (its own pool) allocating the same key while the failed one's connection idles in its pool.
        JdbcRangeAllocator other = new JdbcRangeAllocator(pool(faultyDriver(database, settings.logTable().value(), new AtomicBoolean())), settings, "other",
                StartValuesFixtures.everyKeyAtOne());
        NumberRange next = other.allocate("orders", 10);
        assertEquals(first.last() + 1, next.first());
    }

    /**
     * The same through a data source that wraps SnowKey's pool and hands out connection proxies of its own (as Spring's
     * {@code TransactionAwareDataSourceProxy} does): HikariCP cannot evict such a connection, so it is aborted, which
     * closes it on PostgreSQL and MariaDB. H2's driver ignores an abort: not run there.
     */
    @ParameterizedTest
    @EnumSource(value = TestDatabase.class, names = {"POSTGRESQL", "MARIADB"})
    void aFailedAllocationThroughAWrappedPoolDoesNotLeaveTheRowLocked(final TestDatabase database) {
        JdbcSegmentSettings settings = settings(database);
        AtomicBoolean armed = new AtomicBoolean(false);
        HikariDataSource pool = pool(faultyDriver(database, settings.logTable().value(), armed));
        DataSource wrapping = (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DataSource.class}, (p, m, a) -> {
            if ("getConnection".equals(m.getName())) {
                Connection pooled = pool.getConnection();
                return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class}, (cp, cm, ca) -> FaultyDataSources.invoke(pooled, cm, ca));
            }
            // isWrapperFor and unwrap reach the HikariDataSource.
            return FaultyDataSources.invoke(pool, m, a);
        });
        JdbcRangeAllocator failing = new JdbcRangeAllocator(wrapping, settings, "failing", StartValuesFixtures.everyKeyAtOne());
        NumberRange first = failing.allocate("orders", 10);
        armed.set(true);
        assertThrows(RangeUnavailableException.class, () -> failing.allocate("orders", 10));
        armed.set(false);
        JdbcRangeAllocator other = new JdbcRangeAllocator(pool(faultyDriver(database, settings.logTable().value(), new AtomicBoolean())), settings, "other",
                StartValuesFixtures.everyKeyAtOne());
        NumberRange next = other.allocate("orders", 10);
        assertEquals(first.last() + 1, next.first());
    }

    /**
     * A data source (not HikariCP) that hands out a connection in manual-commit mode with an earlier user's change still
     * open: the allocation rolls it back before switching auto-commit on, which would have committed it.
     */
    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aBorrowedConnectionsOpenTransactionIsRolledBackNotCommitted(final TestDatabase database) throws SQLException {
        JdbcSegmentSettings settings = settings(database);
        JdbcRangeAllocator healthy = new JdbcRangeAllocator(pool(faultyDriver(database, settings.logTable().value(), new AtomicBoolean())), settings, "healthy",
                StartValuesFixtures.everyKeyAtOne());
        NumberRange first = healthy.allocate("orders", 10);
        Connection leftOver = database.connect();
        toClose.add(leftOver);
        leftOver.setAutoCommit(false);
        try (Statement statement = leftOver.createStatement()) {
            statement.executeUpdate("UPDATE " + settings.table().value() + " SET next_value = next_value + 1000 WHERE seq_key = 'orders'");
        }
        JdbcRangeAllocator onLeftOver = new JdbcRangeAllocator(handingOutAsIs(leftOver), settings, "left-over", StartValuesFixtures.everyKeyAtOne());
        NumberRange next = onLeftOver.allocate("orders", 10);
        assertEquals(first.last() + 1, next.first(), "the earlier user's open change to the counter was committed");
    }

    /** Always the same connection, as it is; closing it leaves it open for the next user (the test closes it). */
    private static DataSource handingOutAsIs(final Connection connection) {
        Connection kept = (Connection) Proxy.newProxyInstance(JdbcRangeAllocatorRollbackFailsTest.class.getClassLoader(), new Class<?>[] {Connection.class},
                (p, m, a) -> {
                    if ("close".equals(m.getName())) {
                        return null;
                    }
                    return FaultyDataSources.invoke(connection, m, a);
                });
        return (DataSource) Proxy.newProxyInstance(JdbcRangeAllocatorRollbackFailsTest.class.getClassLoader(), new Class<?>[] {DataSource.class}, (p, m, a) -> {
            switch (m.getName()) {
                case "getConnection":
                    return kept;
                case "isWrapperFor":
                    return false;
                default:
                    throw new UnsupportedOperationException(m.getName());
            }
        });
    }
}
