package org.snowkey.lease.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.snowkey.lease.store.LeaseStoreUnavailableException;
import org.snowkey.lease.testing.CuttableTcpProxy;
import org.snowkey.store.jdbc.JdbcTableName;

/**
 * A database that stops answering without closing connections (partition, frozen VM) must make store calls fail
 * within seconds, not hang for the TCP retransmission timeout while the lease's lock is held. PostgreSQL and
 * MariaDB only: H2's client has no socket timeout to set.
 */
class JdbcSilentDatabaseTest {

    @ParameterizedTest
    @EnumSource(value = TestDatabase.class, names = {"POSTGRESQL", "MARIADB"})
    void aSilentDatabaseFailsStoreCallsWithinSecondsAndRecovers(final TestDatabase database) throws Exception {
        database.assumeAvailable();
        JdbcTableName table = TestDatabase.uniqueTable("silent");
        try (CuttableTcpProxy proxy = new CuttableTcpProxy(database.serverPort());
             JdbcLeaseStore store = new JdbcLeaseStore(database.networkSettings(database.urlAt(proxy.port()), table))) {
            store.list("default");
            proxy.freeze();
            // The store times out after 1 s and reads after 2 s. Without driver timeouts PostgreSQL needs 11 s here (its
            // statement waits 10 s for an unanswerable cancel request) and MariaDB blocks for the TCP timeout.
            long started = System.nanoTime();
            LeaseStoreUnavailableException silent = assertTimeoutPreemptively(Duration.ofSeconds(8),
                    () -> assertThrows(LeaseStoreUnavailableException.class, () -> store.read("default", 1)));
            System.out.printf("%s: a read on a silent connection failed after %d ms%n", database, (System.nanoTime() - started) / 1_000_000);
            assertTrue(silent.getMessage().contains("127.0.0.1:" + proxy.port()), silent.getMessage());
            // A connection attempt into the silence fails in time as well.
            started = System.nanoTime();
            assertTimeoutPreemptively(Duration.ofSeconds(8), () -> assertThrows(LeaseStoreUnavailableException.class, () -> store.read("default", 2)));
            System.out.printf("%s: a new connection into the silence failed after %d ms%n", database, (System.nanoTime() - started) / 1_000_000);
            proxy.restore();
            long deadline = System.currentTimeMillis() + 30_000;
            boolean recovered = false;
            while (!recovered && System.currentTimeMillis() < deadline) {
                try {
                    store.list("default");
                    recovered = true;
                } catch (final LeaseStoreUnavailableException stillBroken) {
                    Thread.sleep(100);
                }
            }
            assertTrue(recovered, "the store works again once the database answers");
        } finally {
            database.dropQuietly(table);
        }
    }
}
