package org.snowkey.lease.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.lease.UnusablePoolException;
import org.snowkey.lease.store.LeaseRecord.State;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.LeaseStoreUnavailableException;
import org.snowkey.lease.store.jdbc.faults.FaultInjectingDriver;
import org.snowkey.lease.store.jdbc.faults.FaultPlan;
import org.snowkey.lease.testing.faults.StoreFault;
import org.snowkey.store.jdbc.JdbcStoreSettings;
import org.snowkey.store.jdbc.JdbcTableName;

/**
 * The probe for the layout column decides "missing" only from the database's "undefined column" answer: a probe cut by
 * a fault must neither switch the one-layout-per-pool check off nor drop the layout of the records the store writes.
 */
class JdbcLayoutProbeTest {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    private static final IdLayout W13 = IdLayout.defaults();

    private static final IdLayout W12 = IdLayout.of(12, W13.sequenceLowBits(), W13.epochMillis());

    @Test
    void aProbeCutByAFaultNeitherHidesNorDropsLayouts() throws SQLException {
        String url = "jdbc:h2:mem:probe_cut" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false";
        JdbcTableName table = TestDatabase.uniqueTable("probe");
        createByHand(url, table);
        try (JdbcLeaseStore first = new JdbcLeaseStore(new JdbcStoreSettings(url, "sa", "", table, false, 3_000L))) {
            first.create(new LeaseRecord("default", 0, "w13", 1, 100, 100, State.HELD, W13)).orElseThrow();
        }
        String faulty = FaultInjectingDriver.wrap(url);
        for (StoreFault fault : StoreFault.values()) {
            FaultPlan plan = FaultInjectingDriver.plan(faulty)
                    .arm("executeQuery SELECT " + LeaseRowReader.LAYOUT_COLUMN + " FROM " + table.value() + " WHERE 1 = 0", 1, fault);
            try (JdbcLeaseStore store = new JdbcLeaseStore(new JdbcStoreSettings(faulty, "sa", "", table, false, 3_000L))) {
                LeaseRecord read = readThroughFaults(store);
                assertTrue(plan.fired(), "the probe was never cut: " + plan.sites());
                assertEquals(W13, read.layout(), fault + " at the probe hid the pool's layout from the reader");
                store.create(new LeaseRecord("default", 1, "w12", 1, 100, 100, State.HELD, W12)).orElseThrow();
            }
            try (JdbcLeaseStore check = new JdbcLeaseStore(new JdbcStoreSettings(url, "sa", "", table, false, 3_000L))) {
                assertEquals(W12, check.read("default", 1).orElseThrow().record().layout(), fault + " at the probe made the store drop the layout it wrote");
                check.delete("default", 1, check.read("default", 1).orElseThrow().storeVersion());
            }
        }
    }

    @Test
    void aProbeOfTheIncarnationColumnCutByAFaultNeitherHidesNorDropsIncarnations() throws SQLException {
        String url = "jdbc:h2:mem:probe_inc" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false";
        JdbcTableName table = TestDatabase.uniqueTable("probe");
        createByHand(url, table);
        String faulty = FaultInjectingDriver.wrap(url);
        int number = 0;
        for (StoreFault fault : StoreFault.values()) {
            FaultPlan plan = FaultInjectingDriver.plan(faulty)
                    .arm("executeQuery SELECT " + LeaseRowReader.INCARNATION_COLUMN + " FROM " + table.value() + " WHERE 1 = 0", 1, fault);
            try (JdbcLeaseStore store = new JdbcLeaseStore(new JdbcStoreSettings(faulty, "sa", "", table, false, 3_000L))) {
                int each = number++;
                LeaseRecord record = new LeaseRecord("default", each, "twin", 1, 100, 100, State.HELD, W13, "nonce-" + each);
                boolean created = false;
                for (int attempt = 0; !created; attempt++) {
                    try {
                        created = store.read("default", each).isPresent() || store.create(record).isPresent();
                    } catch (final LeaseStoreUnavailableException ex) {
                        // The lease retries a call that failed; so does this test.
                        assertTrue(attempt < 3, ex.getMessage());
                    }
                }
                assertTrue(plan.fired(), "the probe was never cut: " + plan.sites());
                assertEquals("nonce-" + each, store.read("default", each).orElseThrow().record().incarnation(), fault + " at the probe dropped the incarnation");
            }
        }
    }

    @Test
    void aTableWithoutTheLayoutColumnThatMayNotBeChangedRefusesLayouts() throws SQLException {
        String url = "jdbc:h2:mem:probe_legacy" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false";
        JdbcTableName table = TestDatabase.uniqueTable("probe");
        try (Connection connection = DriverManager.getConnection(url, "sa", ""); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + table.value() + " (pool VARCHAR(128) NOT NULL, worker_id INT NOT NULL, owner VARCHAR(255) NOT NULL, "
                    + "version BIGINT NOT NULL, fencing_token BIGINT NOT NULL, expires_at BIGINT NOT NULL, reserved_until BIGINT NOT NULL, "
                    + "state VARCHAR(16) NOT NULL, PRIMARY KEY (pool, worker_id))");
        }
        try (JdbcLeaseStore store = new JdbcLeaseStore(new JdbcStoreSettings(url, "sa", "", table, false, 3_000L))) {
            UnusablePoolException refused = assertThrows(UnusablePoolException.class,
                    () -> store.create(new LeaseRecord("default", 0, "w12", 1, 100, 100, State.HELD, W12)));
            assertTrue(refused.getMessage().contains("ALTER TABLE " + table.value() + " ADD COLUMN " + LeaseRowReader.LAYOUT_COLUMN), refused.getMessage());
            assertTrue(store.read("default", 0).isEmpty(), "nothing was written");
        }
    }

    /** A store call that fails because of the injected fault is retried, as the lease retries it. */
    private static LeaseRecord readThroughFaults(final JdbcLeaseStore store) {
        for (int attempt = 0; ; attempt++) {
            try {
                return store.read("default", 0).orElseThrow().record();
            } catch (final LeaseStoreUnavailableException ex) {
                if (attempt > 3) {
                    throw ex;
                }
            }
        }
    }

    private static void createByHand(final String url, final JdbcTableName table) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, "sa", ""); Statement statement = connection.createStatement()) {
            statement.execute(JdbcLeaseSchema.ddl(table));
        }
    }
}
