package org.snowkey.lease.store.zookeeper;

import org.snowkey.lease.store.zookeeper.faults.ZooKeeperFaultSweep;
import org.snowkey.store.zookeeper.FaultInjectedClients;

/** Lease stores of one fault sweep run, as {@code ZooKeeperLeaseProvider} opens one, over the run's failing handles. */
final class FaultInjectedLeaseStores {

    private FaultInjectedLeaseStores() {
    }

    /** The store owns the run's client it is given and closes it. */
    static ZooKeeperLeaseStore open(final ZooKeeperFaultSweep.Run run, final String digest) {
        return new ZooKeeperLeaseStore(FaultInjectedClients.settings(run, digest), FaultInjectedClients.client(run, digest));
    }
}
