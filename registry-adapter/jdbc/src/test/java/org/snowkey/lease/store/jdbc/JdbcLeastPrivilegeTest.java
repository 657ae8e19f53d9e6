package org.snowkey.lease.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.lease.LeaseRuntimeOptions;
import org.snowkey.lease.LeasedWorkerLease;
import org.snowkey.lease.WorkerIdCheckpoint;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.testing.Ids;
import org.snowkey.store.jdbc.JdbcStoreSettings;
import org.snowkey.store.jdbc.JdbcTableName;

/**
 * The grants docs/operations.md ("Security") promises are enough: after the DDL, a user with only SELECT, INSERT and UPDATE on the lease
 * table acquires, renews and releases, on a real PostgreSQL; and that user can neither delete rows nor drop the table.
 */
class JdbcLeastPrivilegeTest {

    @TempDir
    Path checkpoints;

    @Test
    void selectInsertUpdateOnTheTableAreEnough() throws Exception {
        TestDatabase.POSTGRESQL.assumeAvailable();
        JdbcTableName table = TestDatabase.uniqueTable("grants");
        String role = "snowkey_lp_" + Long.toHexString(System.nanoTime());
        TestDatabase.POSTGRESQL.execute(JdbcLeaseSchema.ddl(table));
        TestDatabase.POSTGRESQL.execute("CREATE ROLE " + role + " LOGIN");
        try {
            TestDatabase.POSTGRESQL.execute("GRANT SELECT, INSERT, UPDATE ON " + table.value() + " TO " + role);
            JdbcStoreSettings settings = new JdbcStoreSettings(TestDatabase.POSTGRESQL.url(), role, null, table, false, 2_000L);
            LeaseGrant grant;
            try (LeasedWorkerLease lease = new LeasedWorkerLease(new JdbcLeaseStore(settings), new LeaseTerms("grants", 1_500, 10_000, "least-privilege"), Ids.layout(4),
                    LeaseRuntimeOptions.defaults().withCheckpoint(new WorkerIdCheckpoint(checkpoints, "grants")))) {
                grant = lease.currentGrant();
                long ceiling = grant.ceilingMillis();
                Ids.await("a renewal with UPDATE only", Duration.ofSeconds(20), () -> grant.ceilingMillis() > ceiling);
            }
            try (JdbcLeaseStore store = new JdbcLeaseStore(settings)) {
                assertEquals(LeaseRecord.State.RELEASED, store.read("grants", grant.workerId()).orElseThrow().record().state(), "released with UPDATE only");
            }
            try (Connection connection = DriverManager.getConnection(TestDatabase.POSTGRESQL.url(), role, "");
                 Statement statement = connection.createStatement()) {
                assertThrows(SQLException.class, () -> statement.executeUpdate("DELETE FROM " + table.value()));
                assertThrows(SQLException.class, () -> statement.execute("DROP TABLE " + table.value()));
            }
        } finally {
            TestDatabase.POSTGRESQL.dropQuietly(table);
            TestDatabase.POSTGRESQL.execute("DROP ROLE IF EXISTS " + role);
        }
    }
}
