package org.snowkey.store.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.util.Set;

/**
 * What SnowKey's tables (the lease table, the segment tables) need of any database, in one place: whether a table
 * is there, creating it on demand safely when several instances start at once, and telling a constraint violation
 * from other errors. The same SQL on H2, MySQL/MariaDB and PostgreSQL.
 */
public final class JdbcTables {

    /** SQLSTATEs meaning "undefined column": PostgreSQL's own, and the ODBC-style one MySQL, MariaDB and H2 use. */
    private static final Set<String> UNDEFINED_COLUMN_STATES = Set.of("42703", "42S22");

    /** A schema probe that gets no answer is tried this often on one connection before the caller is told it cannot know. */
    private static final int PROBE_ATTEMPTS = 3;

    private JdbcTables() {
    }

    /** Whether the table can be queried through this connection. */
    public static boolean exists(final Connection connection, final JdbcTableName table, final int timeoutSeconds) {
        return answers(connection, "SELECT COUNT(*) FROM " + table.value() + " WHERE 1 = 0", timeoutSeconds);
    }

    /**
     * Whether the table has that column (an older SnowKey's table may lack one). Only the database's own "undefined
     * column" answer means it is missing: any other failure (a cut connection, a timeout, a lock) says nothing about
     * the schema, so the probe is repeated and, when it never answers, fails rather than guesses. Reading "missing" from
     * a failed probe switched a guard off for the store's life.
     *
     * @throws SQLException when no attempt got an answer either way
     */
    public static boolean hasColumn(final Connection connection, final JdbcTableName table, final String column, final int timeoutSeconds) throws SQLException {
        String probe = "SELECT " + column + " FROM " + table.value() + " WHERE 1 = 0";
        SQLException last = null;
        for (int attempt = 0; attempt < PROBE_ATTEMPTS; attempt++) {
            try (Statement statement = connection.createStatement()) {
                statement.setQueryTimeout(timeoutSeconds);
                statement.executeQuery(probe).close();
                return true;
            } catch (final SQLException ex) {
                if (isUndefinedColumn(ex)) {
                    return false;
                }
                last = ex;
            }
        }
        throw new SQLException("could not tell whether table " + table + " has column " + column + " (" + PROBE_ATTEMPTS + " attempts; last: "
                + last.getMessage() + ")", last.getSQLState(), last);
    }

    /** The database's "no such column" answer: SQLSTATE 42703 on PostgreSQL, 42S22 on MySQL, MariaDB and H2 (anywhere in the chain). */
    public static boolean isUndefinedColumn(final SQLException ex) {
        for (Throwable each = ex; each != null; each = each.getCause()) {
            if (each instanceof SQLException sql && sql.getSQLState() != null && UNDEFINED_COLUMN_STATES.contains(sql.getSQLState())) {
                return true;
            }
            if (each.getCause() == each) {
                break;
            }
        }
        return false;
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
