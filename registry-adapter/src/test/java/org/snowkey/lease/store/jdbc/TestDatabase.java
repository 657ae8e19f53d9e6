package org.snowkey.lease.store.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The databases the JDBC lease tests run against: embedded H2, and this machine's real PostgreSQL and MariaDB
 * servers. A server that cannot be reached skips its tests with the reason, except under {@code CI=true}, where
 * the services are part of the machine and a missing one is a failure rather than a silently green build.
 */
public enum TestDatabase {

    // One in-memory database per JVM, kept open until exit; tables are unique per test.
    H2("H2 (embedded, in memory)", "jdbc:h2:mem:snowkey_lease_test;DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false", "sa", ""),
    POSTGRESQL("PostgreSQL at 127.0.0.1:5432 (user postgres, database test)", "jdbc:postgresql://127.0.0.1:5432/test", "postgres", ""),
    MARIADB("MariaDB at 127.0.0.1:3306 (user root, database test)", "jdbc:mariadb://127.0.0.1:3306/test", "root", "");

    private final String title;

    private final String url;

    private final String username;

    private final String password;

    TestDatabase(final String title, final String url, final String username, final String password) {
        this.title = title;
        this.url = url;
        this.username = username;
        this.password = password;
    }

    public String title() {
        return title;
    }

    public String url() {
        return url;
    }

    public String username() {
        return username;
    }

    public String password() {
        return password;
    }

    /** Skips the calling test (fails it under CI) when the server cannot be reached. */
    public void assumeAvailable() {
        DriverManager.setLoginTimeout(3);
        try (Connection ignored = connect()) {
            return;
        } catch (final SQLException ex) {
            String reason = title + " is not reachable (" + ex.getMessage() + "): its JDBC lease tests are skipped; start the server to run them";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail("CI=true and " + reason);
            }
            Assumptions.abort(reason);
        }
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, username, password);
    }

    /** A table name no other test (or concurrent build on this machine) uses. */
    public static JdbcTableName uniqueTable(final String prefix) {
        return new JdbcTableName(prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12));
    }

    public JdbcStoreSettings settings(final JdbcTableName table) {
        return new JdbcStoreSettings(url, username, password, table, true, 3_000L);
    }

    public JdbcLeaseStore store(final JdbcTableName table) {
        return new JdbcLeaseStore(settings(table));
    }

    /** Runs one statement of test set-up directly, outside the store. */
    public void execute(final String sql) {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (final SQLException ex) {
            throw new IllegalStateException(title + ": " + sql + ": " + ex.getMessage(), ex);
        }
    }

    public void dropQuietly(final JdbcTableName table) {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table.value());
        } catch (final SQLException ignored) {
            // Best effort: a leftover uniquely named table harms no other test.
        }
    }
}
