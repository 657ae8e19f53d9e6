package org.snowkey.lease.store.etcd;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.lease.testing.Ids;
import org.snowkey.lease.testing.faults.FaultSchedule;
import org.snowkey.lease.testing.faults.StoreFault;
import org.snowkey.lease.testing.faults.StoreFaultSweep;
import org.snowkey.lease.testing.faults.SweptLeases;
import org.snowkey.store.etcd.EtcdStoreSettings;
import org.snowkey.store.etcd.EtcdTestServer;
import org.snowkey.store.etcd.FaultInjectingEtcdClient;

/**
 * Every etcd request of the lease store fails once, in each way ({@link StoreFault}), at each of its first two
 * occurrences, over one lease protocol scenario: reads and listings, claims by create and by compare-and-set,
 * renewals, releases. Whatever fails, an instance of another id layout never gets a grant in a pool whose records
 * carry a layout, no two live grants share a worker id, and no id is issued twice across every lease of the scenario.
 */
class EtcdLeaseFaultSweepTest {

    private static final int BITS = 3;

    private static final IdLayout LAYOUT = Ids.layout(BITS);

    private static final IdLayout OTHER_LAYOUT = Ids.layout(BITS + 1);

    @RegisterExtension
    static final EtcdTestServer.PerClass ETCD = new EtcdTestServer.PerClass();

    @TempDir
    Path checkpoints;

    private record Run(EtcdStoreSettings settings, FaultSchedule schedule) {
    }

    @Test
    void noStoreFaultAdmitsASecondLayoutOrASecondHolder() {
        StoreFaultSweep<Run> sweep = new StoreFaultSweep<>(2, List.of(StoreFault.values()),
                description -> new Run(ETCD.server().settings("lease" + UUID.randomUUID().toString().replace("-", "").substring(0, 12)), new FaultSchedule()), Run::schedule);
        List<String> injected = sweep.sweep(this::scenario);
        System.out.println("EtcdLeaseFaultSweepTest: " + injected.size() + " faults injected: " + injected);
        assertTrue(injected.size() >= 20, "too few faults fired to call this a sweep: " + injected);
    }

    private void scenario(final Run run) {
        try (SweptLeases leases = new SweptLeases(checkpoints.resolve(run.settings().namespace()),
                () -> new EtcdLeaseStore(new FaultInjectingEtcdClient(run.settings(), run.schedule())))) {
            leases.claimRefuseRenewAndReplace("p", LAYOUT, OTHER_LAYOUT);
        }
    }
}
