package org.snowkey.lease.store.jdbc;

import org.junit.jupiter.api.BeforeEach;
import org.snowkey.lease.AbstractLeaseProtocolContractTest;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.lease.testing.CuttableTcpProxy;
import org.snowkey.lease.testing.TestScope;
import org.snowkey.store.jdbc.JdbcStoreSettings;
import org.snowkey.store.jdbc.JdbcTableName;

/**
 * The registry-independent lease protocol contract on a database table. Every store of a test reaches the
 * database through a {@link CuttableTcpProxy}, so "registry down" is a real loss of every connection (and refusal
 * of new ones) while the machine's shared server keeps running for everyone else.
 */
abstract class JdbcLeaseProtocolContract extends AbstractLeaseProtocolContractTest {

    /** Statements and connection attempts give up after a second, well inside the contract's 1.5 s leases. */
    private static final long STORE_TIMEOUT_MILLIS = 1_000L;

    private final TestDatabase database;

    private JdbcTableName table;

    private CuttableTcpProxy proxy;

    JdbcLeaseProtocolContract(final TestDatabase database) {
        this.database = database;
    }

    @BeforeEach
    void openProxy() throws Exception {
        database.assumeAvailable();
        table = TestDatabase.uniqueTable("contract");
        JdbcTableName created = table;
        // Registered first, so closed last: leases release through the proxy before it goes, then the table is dropped.
        closeLater(() -> database.dropQuietly(created));
        proxy = closeLater(new CuttableTcpProxy(database.serverPort()));
    }

    /**
     * The protocol-logic scenarios run on H2 here and on ZooKeeper: on PostgreSQL and MariaDB they would take the same
     * Java path through the same four store calls, whose SQL on those databases their store contracts check.
     */
    @Override
    protected void assumeProtocolLogicWanted(final String scenario) {
        if (database != TestDatabase.H2) {
            TestScope.assumeRepeatWanted(database.title(), scenario, "H2 (JdbcLeaseProtocolH2Test) and ZooKeeper (ZooKeeperLeaseProtocolTest)");
        }
    }

    @Override
    protected LeaseStore openStore() {
        return new JdbcLeaseStore(new JdbcStoreSettings(database.urlAt(proxy.port()), database.username(), database.password(), table, true,
                STORE_TIMEOUT_MILLIS));
    }

    /**
     * The row gets an unknown state and the garbage as owner: a hand edit gone wrong that the store must report
     * with the row's content rather than read as a free number.
     */
    @Override
    protected void writeGarbage(final String pool, final int workerId, final String content) {
        database.execute(JdbcLeaseSchema.ddl(table));
        database.execute("DELETE FROM " + table.value() + " WHERE pool = '" + pool + "' AND worker_id = " + workerId);
        database.execute("INSERT INTO " + table.value() + " (" + LeaseRowReader.COLUMNS + ") VALUES ('" + pool + "', " + workerId + ", '"
                + content.replace("'", "''") + "', 1, 1, 0, 0, 'GARBAGE')");
    }

    @Override
    protected void stopRegistry() {
        proxy.cut();
    }

    @Override
    protected void startRegistry() {
        proxy.restore();
    }
}
