package org.snowkey.lease;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.lease.store.jdbc.JdbcLeaseSchema;
import org.snowkey.lease.store.jdbc.JdbcLeaseStore;
import org.snowkey.lease.store.jdbc.faults.FaultInjectingDriver;
import org.snowkey.lease.store.jdbc.faults.FaultSweep;
import org.snowkey.lease.testing.Ids;
import org.snowkey.lease.testing.faults.StoreFault;
import org.snowkey.lease.testing.faults.SweptLeases;
import org.snowkey.store.jdbc.JdbcStoreSettings;
import org.snowkey.store.jdbc.JdbcTableName;

/**
 * Every store call of the JDBC lease store fails once, in each way ({@link StoreFault}), at each of its first
 * occurrences, over one lease protocol scenario: the table and column probes and DDL, claims by create and by
 * compare-and-set, the listings of the layout check, renewals, releases, the give-back. Whatever fails:
 * <ul>
 * <li>an instance of another id layout never gets a grant in a pool whose records carry a layout,</li>
 * <li>no two live grants share a worker id, and no id is issued twice across every lease of the scenario.</li>
 * </ul>
 * Run twice: on a table SnowKey creates, and on a table made by hand with {@code jdbc-create-table: false}, where a
 * cut layout probe used to switch the layout check off for the store's life.
 */
class JdbcLeaseFaultSweepTest {

    private static final JdbcTableName TABLE = new JdbcTableName("lease_sweep");

    private static final int BITS = 3;

    private static final IdLayout LAYOUT = Ids.layout(BITS);

    private static final IdLayout OTHER_LAYOUT = Ids.layout(BITS + 1);

    @TempDir
    Path checkpoints;

    @Test
    void noStoreFaultAdmitsASecondLayoutOrASecondHolderOnATableSnowKeyCreates() {
        List<String> injected = new FaultSweep("lease_sweep_created", 1).sweep(run -> scenario(run, true));
        assertTrue(injected.size() >= 20, "too few faults fired to call this a sweep: " + injected);
    }

    @Test
    void noStoreFaultAdmitsASecondLayoutOrASecondHolderOnATableMadeByHand() {
        List<String> injected = new FaultSweep("lease_sweep_by_hand", 2).sweep(run -> {
            try (Connection connection = DriverManager.getConnection(run.url().replace(FaultInjectingDriver.PREFIX, "jdbc:"), "sa", "");
                 Statement statement = connection.createStatement()) {
                statement.execute(JdbcLeaseSchema.ddl(TABLE));
            } catch (final SQLException ex) {
                throw new IllegalStateException(ex);
            }
            scenario(run, false);
        });
        assertTrue(injected.size() >= 30, "too few faults fired to call this a sweep: " + injected);
    }

    private void scenario(final FaultSweep.Run run, final boolean createTable) {
        String pool = "p";
        try (SweptLeases leases = new SweptLeases(checkpoints.resolve(Integer.toString(Math.abs(run.url().hashCode()))),
                () -> new JdbcLeaseStore(new JdbcStoreSettings(run.url(), "sa", "", TABLE, createTable, 2_000L)))) {
            // With one holder, a fault at the first or the second store's layout probe (the holder's, the stranger's)
            // decides the stranger's refusal, which is what a probe read as "no column" got wrong.
            leases.claimRefuseRenewAndReplace(pool, LAYOUT, OTHER_LAYOUT);
        }
    }
}
