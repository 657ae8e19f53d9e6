package org.snowkey.configcheck;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.apache.curator.test.TestingServer;

/**
 * The stores every deployment of the JVM shares: one H2 database in memory (reached through {@link RuntimeConnections})
 * and one embedded ZooKeeper server, started on first use. Deployments keep apart by their own table names, pools and
 * namespaces; opening a database or a server per deployment would cost more than the deployment.
 */
final class SharedStores implements AutoCloseable {

    private static final String H2_URL = "jdbc:h2:mem:configuration_check;DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false";

    /** Keeps the in-memory database alive between deployments. */
    private final Connection keeper;

    private final H2Sessions sessions = new H2Sessions(H2_URL);

    private TestingServer zookeeper;

    private long leftBehind;

    SharedStores() throws SQLException {
        keeper = DriverManager.getConnection(H2_URL);
        RuntimeConnections.connectTo(sessions);
    }

    synchronized String zookeeperServers() {
        if (zookeeper == null) {
            try {
                zookeeper = new TestingServer(true);
            } catch (final Exception ex) {
                throw new IllegalStateException("could not start the embedded ZooKeeper server", ex);
            }
        }
        return "127.0.0.1:" + zookeeper.getPort();
    }

    /**
     * Drops the tables of one deployment: its lease table and its segment table with the segment log. A table still
     * locked by a store call that outlived its deployment (a range fetch in flight when the runtime closed) is left
     * behind: it holds only that deployment's rows.
     */
    void dropTables(final String prefix) {
        synchronized (keeper) {
            for (String each : List.of("lease", "seg", "seg_log")) {
                try (Statement statement = keeper.createStatement()) {
                    statement.setQueryTimeout(1);
                    statement.execute("DROP TABLE IF EXISTS " + prefix + each);
                } catch (final SQLException ex) {
                    leftBehind++;
                }
            }
        }
    }

    /** Tables {@link #dropTables} had to leave behind. */
    long leftBehind() {
        synchronized (keeper) {
            return leftBehind;
        }
    }

    @Override
    public synchronized void close() throws Exception {
        sessions.close();
        keeper.close();
        if (zookeeper != null) {
            zookeeper.close();
        }
    }
}
