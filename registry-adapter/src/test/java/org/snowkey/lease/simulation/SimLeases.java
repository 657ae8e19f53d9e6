package org.snowkey.lease.simulation;

import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.lease.LeaseRuntimeOptions;
import org.snowkey.lease.LeasedWorkerLease;
import org.snowkey.lease.store.LeaseStore;

/** How the simulator builds the production lease: the one place that follows its constructor. */
final class SimLeases {

    private SimLeases() {
    }

    static LeasedWorkerLease open(final LeaseStore store, final LeaseTerms settings, final IdLayout layout, final LeaseRuntimeOptions options) {
        return new LeasedWorkerLease(store, settings, layout, options);
    }
}
