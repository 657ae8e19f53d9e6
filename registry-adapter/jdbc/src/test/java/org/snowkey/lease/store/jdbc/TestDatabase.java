package org.snowkey.lease.store.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.snowkey.store.jdbc.JdbcStoreSettings;
import org.snowkey.store.jdbc.JdbcTableName;

/**
 * The databases the JDBC lease tests run against: embedded H2, and this machine's real PostgreSQL and MariaDB
 * servers. A server that cannot be reached skips its tests with the reason, except under {@code CI=true}, where
 * the services are part of the machine and a missing one is a failure rather than a silently green build.
 */
public enum TestDatabase {

    // One in-memory database per JVM, kept open until exit; tables are unique per test.
    H2("H2 (embedded, in memory)", "jdbc:h2:mem:snowkey_lease_test;DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false", "sa", ""),
    POSTGRESQL("PostgreSQL (user postgres, database test)", "jdbc:postgresql://127.0.0.1:5432/test", "postgres", ""),
    MARIADB("MariaDB (user root, empty password, database test)", "jdbc:mariadb://127.0.0.1:3306/test", "root", "");

    private final String title;

    private final String url;

    private final String username;

    private final String password;

    TestDatabase(final String title, final String url, final String username, final String password) {
        this.title = title;
        // -Dsnowkey.test.postgresql.url=... points a run at another port of this host (or at nothing, to see the skip message).
        this.url = System.getProperty("snowkey.test." + name().toLowerCase(java.util.Locale.ROOT) + ".url", url);
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
            String reason = title + " is not reachable at " + url + " (" + ex.getMessage() + "): its JDBC lease tests are skipped; start the server to run them";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail("CI=true and " + reason);
            }
            Assumptions.abort(reason);
        }
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, username, password);
    }

    /** The TCP port of the server; for H2 a TCP server is started in this JVM on first use, for other processes and proxies. */
    public int serverPort() {
        return switch (this) {
            case H2 -> H2Server.PORT;
            case POSTGRESQL, MARIADB -> portOf(url);
        };
    }

    /** The port of a loopback server URL; proxies and child processes reach it on 127.0.0.1. */
    private static int portOf(final String serverUrl) {
        java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("//[^/:]+:(\\d+)/").matcher(serverUrl);
        if (!matcher.find()) {
            throw new IllegalStateException("no port in " + serverUrl);
        }
        return Integer.parseInt(matcher.group(1));
    }

    /** The URL of the same database reached over TCP at another port of this host (a proxy in front of it). */
    public String urlAt(final int port) {
        return switch (this) {
            case H2 -> "jdbc:h2:tcp://127.0.0.1:" + port + "/mem:snowkey_lease_test;DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false";
            case POSTGRESQL -> "jdbc:postgresql://127.0.0.1:" + port + "/test";
            case MARIADB -> "jdbc:mariadb://127.0.0.1:" + port + "/test";
        };
    }

    /** The database over TCP: the URL child processes use (for H2 the same in-memory database as {@link #url()}, served by this JVM). */
    public String networkUrl() {
        return urlAt(serverPort());
    }

    public JdbcStoreSettings networkSettings(final String networkUrl, final JdbcTableName table) {
        return new JdbcStoreSettings(networkUrl, username, password, table, true, 1_000L);
    }

    /** H2's TCP server, serving in-memory databases of this JVM to proxies and child processes. */
    private static final class H2Server {

        static final int PORT = start();

        private static int start() {
            try {
                int port;
                try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
                    port = probe.getLocalPort();
                }
                org.h2.tools.Server server = org.h2.tools.Server.createTcpServer("-tcpPort", String.valueOf(port), "-ifNotExists").start();
                Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "test-h2-tcp-stop"));
                return server.getPort();
            } catch (final SQLException | java.io.IOException ex) {
                throw new IllegalStateException("cannot start H2's TCP server: " + ex.getMessage(), ex);
            }
        }
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
