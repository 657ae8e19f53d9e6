package org.snowkey.lease.store.zookeeper;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.lease.LeasedWorkerLease;
import org.snowkey.lease.admin.LeaseAdmin;
import org.snowkey.lease.store.LeaseStoreUnavailableException;
import org.snowkey.lease.store.zookeeper.faults.ZooKeeperFaultSweep;
import org.snowkey.lease.testing.ForwardingLeaseStore;
import org.snowkey.lease.testing.Ids;
import org.snowkey.lease.testing.faults.RetriedCall;
import org.snowkey.lease.testing.faults.StoreFault;
import org.snowkey.lease.testing.faults.SweptLeases;

/**
 * Every ZooKeeper call of the lease store fails once, in each way ({@link StoreFault}), over one lease protocol
 * scenario with a digest: the ACL check of the pool (its creates, listing and ACL reads), claims by create and by
 * compare-and-set (a claim whose answer was lost is adopted on the next attempt), the listings of the layout check, a
 * refused instance of another layout, renewals, a release and a new incarnation of the same instance id, an operator's
 * force-release of a live holder, an operator's ACL repair, and a holder opened after every fault. Whatever fails:
 * <ul>
 * <li>an instance of another id layout never gets a grant in the pool,</li>
 * <li>no two live grants share a worker id, and no id is issued twice across every lease of the scenario,</li>
 * <li>the store works again once the fault has passed (every step ends with ids issued).</li>
 * </ul>
 * A call site is a ZooKeeper operation and the line of SnowKey that asked for it; {@code -Dsnowkey.faults.occurrences}
 * and {@code -Dsnowkey.faults.kinds} widen or narrow the sweep.
 */
class ZooKeeperLeaseFaultSweepTest {

    private static final String DIGEST = "snowkey:Zk-Faults-7";

    private static final String POOL = "p";

    private static final IdLayout LAYOUT = Ids.layout(3);

    private static final IdLayout OTHER_LAYOUT = Ids.layout(4);

    @TempDir
    Path checkpoints;

    @Test
    void noStoreFaultAdmitsASecondLayoutOrASecondHolder() {
        List<String> injected = new ZooKeeperFaultSweep("lease-sweep", 1).sweep(this::scenario);
        System.out.println("ZooKeeperLeaseFaultSweepTest: " + injected.size() + " faults injected");
        assertTrue(injected.size() >= 50, "too few faults fired to call this a sweep: " + injected);
    }

    private void scenario(final ZooKeeperFaultSweep.Run run) {
        // One client for every lease and command of the run: a client costs a session (hundreds of milliseconds here),
        // and the sweep runs the scenario once per fault. The pool's ACL check therefore runs once per run.
        try (ZooKeeperLeaseStore store = FaultInjectedLeaseStores.open(run, DIGEST);
             SweptLeases leases = new SweptLeases(checkpoints.resolve(run.namespace()), () -> new SharedStore(store))) {
            SweptLeases.Survivors survivors = leases.claimRefuseRenewAndReplace(POOL, LAYOUT, OTHER_LAYOUT);
            LeasedWorkerLease successor = survivors.successor();
            LeasedWorkerLease second = survivors.second();

            // The operator force-releases a live holder: its next renewal sees the loss and it moves on (to the same
            // number, perhaps, issuing above its old reservation once that has passed).
            int forced = SweptLeases.grant(second).workerId();
            operator(() -> new LeaseAdmin(store, quiet()).release(POOL, forced));
            leases.renew("b");
            leases.checkHolders();
            leases.passLeaseDuration();
            leases.issue(second);
            leases.issue(successor);
            leases.checkHolders();

            // Someone opened the pool's node; the operator repairs the ACLs, which re-reserves every record: holders
            // lose their next renewal and take another number.
            openPoolNode(run, store);
            operator(() -> store.repairAcls(POOL, leases.nowMillis(), SweptLeases.LEASE_MILLIS, quiet()));
            leases.renew("a");
            leases.renew("b");
            leases.checkHolders();
            leases.passLeaseDuration();
            leases.issue(successor);
            leases.issue(second);
            leases.checkHolders();

            // Once the fault has passed, a new holder gets a grant.
            LeasedWorkerLease late = leases.open(POOL, "c", LAYOUT);
            leases.issue(late);
            leases.checkHolders();
        }
    }

    /** An operations-tool command, re-run by the operator while the registry is unreachable. */
    private static void operator(final Runnable command) {
        RetriedCall.until(() -> {
            command.run();
            return null;
        }, LeaseStoreUnavailableException.class::isInstance);
    }

    /**
     * The pool's node made writable for anyone (what the repair is for). Through the run's client, but never broken:
     * only calls SnowKey's code makes are call sites.
     */
    private static void openPoolNode(final ZooKeeperFaultSweep.Run run, final ZooKeeperLeaseStore store) {
        try {
            store.client().setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath("/" + run.namespace() + "/snowkey/" + POOL);
        } catch (final Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** The run's one store, for a lease that closes its store when it closes. */
    private static final class SharedStore extends ForwardingLeaseStore {

        SharedStore(final ZooKeeperLeaseStore store) {
            super(store);
        }

        @Override
        public void close() {
            // Closed by the run.
        }
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }
}
