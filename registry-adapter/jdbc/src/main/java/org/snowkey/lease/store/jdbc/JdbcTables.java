package org.snowkey.lease.store.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;

/**
 * What SnowKey's tables (the lease table, the segment tables) need of any database, in one place: whether a table
 * is there, creating it on demand safely when several instances start at once, and telling a constraint violation
 * from other errors. The same SQL on H2, MySQL/MariaDB and PostgreSQL.
 */
public final class JdbcTables {

    private JdbcTables() {
    }

    /** Whether the table can be queried through this connection. */
    public static boolean exists(final Connection connection, final JdbcTableName table, final int timeoutSeconds) {
        return answers(connection, "SELECT COUNT(*) FROM " + table.value() + " WHERE 1 = 0", timeoutSeconds);
    }

    /** Whether the table has that column (an older SnowKey's table may lack one). */
    public static boolean hasColumn(final Connection connection, final JdbcTableName table, final String column, final int timeoutSeconds) {
        return answers(connection, "SELECT " + column + " FROM " + table.value() + " WHERE 1 = 0", timeoutSeconds);
    }

    /**
     * Creates the table with {@code ddl} unless it exists. {@code IF NOT EXISTS} lets concurrent first starts race
     * safely on most databases; PostgreSQL may still fail the loser of a simultaneous CREATE, so a failure counts
     * only when the table is still missing afterwards.
     *
     * @param mayCreate   false when creation is switched off: a missing table is then an error giving the DDL
     * @param creationOff how the error says creation is off (the prop that switches it, for instance)
     * @return true when this call created the table
     * @throws SQLException when the table is missing and could not be created
     */
    public static boolean createIfMissing(final Connection connection, final JdbcTableName table, final String ddl, final boolean mayCreate,
                                          final String creationOff, final int timeoutSeconds) throws SQLException {
        if (exists(connection, table, timeoutSeconds)) {
            return false;
        }
        if (!mayCreate) {
            throw new SQLException("table " + table + " does not exist (or cannot be read) and " + creationOff + "; create it with:\n" + ddl);
        }
        try (Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(timeoutSeconds);
            statement.execute(ddl);
            return true;
        } catch (final SQLException ex) {
            if (!exists(connection, table, timeoutSeconds)) {
                throw ex;
            }
            return false;
        }
    }

    /** A duplicate key or another constraint refused the write (SQLSTATE class 23), which callers may expect in a race. */
    public static boolean isConstraintViolation(final SQLException ex) {
        return ex instanceof SQLIntegrityConstraintViolationException || ex.getSQLState() != null && ex.getSQLState().startsWith("23");
    }

    private static boolean answers(final Connection connection, final String probe, final int timeoutSeconds) {
        try (Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(timeoutSeconds);
            statement.executeQuery(probe).close();
            return true;
        } catch (final SQLException ex) {
            return false;
        }
    }
}
