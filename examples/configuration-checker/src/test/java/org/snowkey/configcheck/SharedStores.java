package org.snowkey.configcheck;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.apache.curator.test.TestingServer;

/**
 * The stores every deployment of the JVM shares: one H2 database in memory (reached through {@link FaultyJdbcDriver})
 * and one embedded ZooKeeper server, started on first use. Deployments keep apart by their own table names, pools and
 * namespaces; opening a database or a server per deployment would cost more than the deployment.
 */
final class SharedStores implements AutoCloseable {

    private static final String H2_URL = "jdbc:h2:mem:configuration_check;DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false";

    /** Keeps the in-memory database alive between deployments. */
    private final Connection keeper;

    private TestingServer zookeeper;

    SharedStores() throws SQLException {
        keeper = DriverManager.getConnection(H2_URL);
        FaultyJdbcDriver.register(H2_URL);
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

    /** Drops the tables of one deployment: its lease table and its segment table with the segment log. */
    void dropTables(final String prefix) throws SQLException {
        synchronized (keeper) {
            try (Statement statement = keeper.createStatement()) {
                for (String each : List.of("lease", "seg", "seg_log")) {
                    statement.execute("DROP TABLE IF EXISTS " + prefix + each);
                }
            }
        }
    }

    @Override
    public synchronized void close() throws Exception {
        keeper.close();
        if (zookeeper != null) {
            zookeeper.close();
        }
    }
}
