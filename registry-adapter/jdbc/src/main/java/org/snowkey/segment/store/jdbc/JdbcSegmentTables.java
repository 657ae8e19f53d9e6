package org.snowkey.segment.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.keygen.config.Redactor;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.store.jdbc.JdbcTableName;
import org.snowkey.store.jdbc.JdbcTables;
import org.snowkey.store.jdbc.JdbcUrls;

import com.zaxxer.hikari.HikariDataSource;

/**
 * The segment tables behind a data source: borrowing connections, creating missing tables, and turning every
 * database error into a {@link RangeUnavailableException} that names the tables, the URL without credentials and
 * the cause. The data source (its pool, its network timeouts) belongs to the caller.
 */
final class JdbcSegmentTables {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcSegmentTables.class);

    private final DataSource dataSource;

    private final JdbcSegmentSettings settings;

    /** The URL without credentials; taken from the first connection when the settings do not give it. */
    private volatile String safeUrl;

    private volatile Redactor redactor;

    private volatile boolean tablesReady;

    JdbcSegmentTables(final DataSource dataSource, final JdbcSegmentSettings settings) {
        if (dataSource == null) {
            throw new IllegalArgumentException("no data source for the segment tables");
        }
        this.dataSource = dataSource;
        this.settings = settings;
        this.safeUrl = settings.safeUrl();
        this.redactor = settings.redactor();
    }

    String table() {
        return settings.table().value();
    }

    String logTable() {
        return settings.logTable().value();
    }

    String describe() {
        return "jdbc " + (safeUrl == null ? "(database not reached yet)" : safeUrl) + " table " + table() + " (log " + logTable() + ")";
    }

    /** One unit of work in auto-commit mode (each statement atomic on its own). */
    <T> T autoCommit(final String action, final SqlWork<T> work) {
        try (Connection connection = open()) {
            return work.run(connection);
        } catch (final SQLException ex) {
            throw failure(action, ex);
        }
    }

    /**
     * One unit of work in one transaction: committed when it returns, rolled back when it throws. A commit that
     * fails may still have been applied (the answer was lost); callers rely on that being harmless.
     */
    <T> T transaction(final String action, final SqlWork<T> work) {
        try (Connection connection = open()) {
            boolean autoCommit = connection.getAutoCommit();
            int isolation = connection.getTransactionIsolation();
            // READ COMMITTED whatever the pool's default: an allocation queued behind another's row lock must advance
            // the row from its committed value, which REPEATABLE READ or SERIALIZABLE on PostgreSQL refuse with a
            // serialization failure (each allocation is one row UPDATE, so nothing weaker than the row lock is needed).
            if (isolation != Connection.TRANSACTION_READ_COMMITTED) {
                connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            }
            connection.setAutoCommit(false);
            // Committed or rolled back: only then is auto-commit switched back on.
            boolean transactionEnded = false;
            try {
                T result = work.run(connection);
                connection.commit();
                transactionEnded = true;
                return result;
            } catch (final SQLException | RuntimeException ex) {
                transactionEnded = rollbackQuietly(connection, ex);
                throw ex;
            } finally {
                if (transactionEnded) {
                    restoreQuietly(connection, autoCommit, isolation);
                } else {
                    discard(connection);
                }
            }
        } catch (final SQLException ex) {
            throw failure(action, ex);
        }
    }

    PreparedStatement prepare(final Connection connection, final String sql) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        statement.setQueryTimeout(settings.timeoutSeconds());
        return statement;
    }

    RangeUnavailableException failure(final String action, final SQLException ex) {
        Redactor current = redactor;
        return new RangeUnavailableException("SnowKey could not " + action + " in " + describe() + ": " + current.messages(ex), current.clean(ex));
    }

    private Connection open() throws SQLException {
        Connection connection = dataSource.getConnection();
        try {
            // A pool may hand out connections in manual-commit mode; the existence checks below must not fail a
            // transaction (PostgreSQL aborts one at its first error), and transaction() switches it off itself. Whatever
            // such a connection did before is rolled back first: switching auto-commit on would commit it.
            if (!connection.getAutoCommit()) {
                connection.rollback();
                connection.setAutoCommit(true);
            }
            if (safeUrl == null) {
                learnUrl(connection);
            }
            if (!tablesReady) {
                ensureTables(connection);
            }
            return connection;
        } catch (final SQLException | RuntimeException ex) {
            connection.close();
            throw ex;
        }
    }

    private void learnUrl(final Connection connection) {
        try {
            String url = connection.getMetaData().getURL();
            if (url != null) {
                redactor = Redactor.of(url);
                safeUrl = JdbcUrls.withoutCredentials(url);
            }
        } catch (final SQLException ex) {
            // Messages then say "database not reached yet"; the URL is only there to help the reader.
            LOG.debug("SnowKey could not read the JDBC URL of the segment data source", ex);
        }
    }

    private synchronized void ensureTables(final Connection connection) throws SQLException {
        if (tablesReady) {
            return;
        }
        ensureTable(connection, settings.table(), JdbcSegmentSchema.counterDdl(settings.table()));
        ensureTable(connection, settings.logTable(), JdbcSegmentSchema.logDdl(settings.logTable()));
        tablesReady = true;
    }

    private void ensureTable(final Connection connection, final JdbcTableName table, final String ddl) throws SQLException {
        if (JdbcTables.createIfMissing(connection, table, ddl, settings.createTable(), "table creation is off", settings.timeoutSeconds())) {
            LOG.info("SnowKey created segment table {} in {}", table, safeUrl);
        }
    }

    /** True when the transaction was rolled back. */
    private static boolean rollbackQuietly(final Connection connection, final Exception cause) {
        try {
            connection.rollback();
            return true;
        } catch (final SQLException ex) {
            cause.addSuppressed(ex);
            return false;
        }
    }

    /**
     * Closes for good a connection whose transaction could not be ended (its rollback failed), so that the database rolls
     * the transaction back and the counter row's lock goes with it. Switching auto-commit back on would commit what the
     * work did so far (a counter advanced without its log row); handed back to the pool as it is, the connection could
     * wait there idle with the row locked, since HikariCP drops a connection whose rollback fails only for errors it
     * takes for a broken connection. SnowKey's own pools evict it; any other connection is aborted, which closes it on
     * PostgreSQL and MariaDB (H2's driver ignores an abort).
     */
    private void discard(final Connection connection) {
        if (evictedFromHikari(connection)) {
            return;
        }
        try {
            connection.abort(Runnable::run);
        } catch (final SQLException | RuntimeException ex) {
            LOG.debug("SnowKey could not abort a segment connection whose rollback failed", ex);
        }
    }

    /** True when {@code connection} is HikariCP's own (not a wrapper around it) and its pool evicted it. */
    private boolean evictedFromHikari(final Connection connection) {
        // HikariCP ignores, silently, the eviction of any other connection object.
        if (!connection.getClass().getName().startsWith("com.zaxxer.hikari.")) {
            return false;
        }
        try {
            if (dataSource.isWrapperFor(HikariDataSource.class)) {
                dataSource.unwrap(HikariDataSource.class).evictConnection(connection);
                return true;
            }
        } catch (final SQLException | RuntimeException ex) {
            LOG.debug("SnowKey could not evict a segment connection whose rollback failed", ex);
        }
        return false;
    }

    private static void restoreQuietly(final Connection connection, final boolean autoCommit, final int isolation) {
        try {
            connection.setAutoCommit(autoCommit);
            // Back to the pool as it came (not every pool resets the level itself).
            if (connection.getTransactionIsolation() != isolation) {
                connection.setTransactionIsolation(isolation);
            }
        } catch (final SQLException ex) {
            // The connection is broken; the pool finds out when it is next validated.
            LOG.debug("SnowKey could not restore auto-commit on a segment connection", ex);
        }
    }

    /** One unit of work on a borrowed connection. */
    @FunctionalInterface
    interface SqlWork<T> {

        T run(Connection connection) throws SQLException;
    }
}
