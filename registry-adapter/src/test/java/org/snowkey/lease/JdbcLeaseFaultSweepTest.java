package org.snowkey.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseUnavailableException;
import org.snowkey.lease.store.LeaseStoreUnavailableException;
import org.snowkey.lease.store.jdbc.JdbcLeaseSchema;
import org.snowkey.lease.store.jdbc.JdbcLeaseStore;
import org.snowkey.lease.store.jdbc.JdbcStoreSettings;
import org.snowkey.lease.store.jdbc.JdbcTableName;
import org.snowkey.lease.store.jdbc.faults.FaultInjectingDriver;
import org.snowkey.lease.store.jdbc.faults.FaultSweep;
import org.snowkey.lease.store.jdbc.faults.StoreFault;
import org.snowkey.lease.testing.Ids;
import org.snowkey.lease.testing.ManualScheduler;

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

    private final Map<LeasedWorkerLease, IdGenerator> generators = new IdentityHashMap<>();

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
        Map<String, ManualScheduler> schedulers = new HashMap<>();
        List<LeasedWorkerLease> leases = new ArrayList<>();
        Set<Long> ids = new HashSet<>();
        try {
            LeasedWorkerLease first = open(run, createTable, pool, "a", LAYOUT, schedulers, leases);
            issue(first, ids);

            // Another layout never gets a grant: the pool's one record carries LAYOUT (a fault only delays the refusal).
            // With one holder, a fault at the first or the second store's layout probe (the holder's, the stranger's)
            // decides it, which is what a probe read as "no column" got wrong.
            LeasedWorkerLease stranger = open(run, createTable, pool, "x", OTHER_LAYOUT, schedulers, leases);
            LeaseUnavailableException refused = assertThrows(LeaseUnavailableException.class, () -> grant(stranger),
                    "an instance of another layout was admitted into the pool");
            assertInstanceOf(UnusablePoolException.class, refused.getCause(), refused.getMessage());

            LeasedWorkerLease second = open(run, createTable, pool, "b", LAYOUT, schedulers, leases);
            issue(second, ids);
            checkHolders(leases);

            // Renewals (their failures and lost answers included), then more ids.
            schedulers.get("a").runNext();
            schedulers.get("b").runNext();
            issue(first, ids);
            issue(second, ids);
            checkHolders(leases);

            // A release, then a new incarnation of the same instance id (same checkpoint: it reads its last number first).
            first.close();
            LeasedWorkerLease successor = open(run, createTable, pool, "a", LAYOUT, schedulers, leases);
            issue(successor, ids);
            issue(second, ids);
            checkHolders(leases);
        } finally {
            leases.forEach(LeasedWorkerLease::close);
        }
    }

    private LeasedWorkerLease open(final FaultSweep.Run run, final boolean createTable, final String pool, final String instanceId, final IdLayout layout,
                                   final Map<String, ManualScheduler> schedulers, final List<LeasedWorkerLease> leases) {
        ManualScheduler scheduler = new ManualScheduler();
        schedulers.put(instanceId, scheduler);
        JdbcLeaseStore store = new JdbcLeaseStore(new JdbcStoreSettings(run.url(), "sa", "", TABLE, createTable, 2_000L));
        LeaseRuntimeOptions options = LeaseRuntimeOptions.defaults().withRenewalScheduler(scheduler)
                .withCheckpoint(new WorkerIdCheckpoint(checkpoints.resolve(Math.abs(run.url().hashCode()) + "-" + instanceId), pool));
        // No acquisition timeout: a failed attempt fails at once and grant() retries it, without the lease's retry wait.
        LeasedWorkerLease lease = new LeasedWorkerLease(store, new LeaseSettings(pool, 60_000L, 0L, instanceId), layout, options);
        leases.add(lease);
        return lease;
    }

    /**
     * Acquires as an insert would, retrying an unreachable store (each fault fires once, so a few tries get through);
     * a refusal (another layout in the pool) is not retried.
     */
    private static LeaseGrant grant(final LeasedWorkerLease lease) {
        for (int attempt = 0; ; attempt++) {
            try {
                return lease.currentGrant();
            } catch (final LeaseUnavailableException ex) {
                if (!(ex.getCause() instanceof LeaseStoreUnavailableException) && !(ex.getCause() instanceof PoolExhaustedException) || attempt >= 4) {
                    throw ex;
                }
            }
        }
    }

    /**
     * Issues a few ids; an id seen before means two leases issued on one number at one time. Each lease has one
     * generator, as in the runtime (one per lease scope): the generator holds the worker id's one counter, so two
     * generators on one lease would repeat each other's ids by construction and prove nothing about the store.
     */
    private void issue(final LeasedWorkerLease lease, final Set<Long> ids) {
        grant(lease);
        IdGenerator generator = generators.computeIfAbsent(lease, each -> new IdGenerator(LAYOUT, each, WallClock.system(), 10, 10_000));
        for (int i = 0; i < 20; i++) {
            long id = generator.nextId();
            assertTrue(ids.add(id), "id " + id + " issued twice (last by " + lease + ")");
        }
    }

    /** No two live grants on one worker id. */
    private static void checkHolders(final List<LeasedWorkerLease> leases) {
        Map<Integer, LeasedWorkerLease> holders = new HashMap<>();
        for (LeasedWorkerLease each : leases) {
            Optional<LeaseGrant> grant = each.heldGrant();
            if (grant.isPresent()) {
                LeasedWorkerLease other = holders.put(grant.get().workerId(), each);
                assertEquals(null, other, "two live holders of worker id " + grant.get().workerId() + ": " + other + " and " + each);
            }
        }
    }
}
