package org.snowkey.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseUnavailableException;
import org.snowkey.keygen.lease.WorkerLease;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.testing.ForwardingLeaseStore;
import org.snowkey.lease.testing.ManualScheduler;
import org.snowkey.lease.testing.SettableClock;

/**
 * The siblings of a lease (the extra holdings of a hot generator) share its store: whichever closes last closes it,
 * each releases its own number, and a lease whose store is closed opens no more siblings.
 */
class LeasedWorkerLeaseSiblingTest {

    private static final String POOL = "siblings";

    private static final LeaseTerms SETTINGS = new LeaseTerms(POOL, 5_000, 1_000, "sibling-test");

    /** 2 worker-id bits: a pool of 4 numbers. */
    private static final IdLayout LAYOUT = IdLayout.of(2, 1, 1_700_000_000_000L);

    private final SettableClock clock = new SettableClock(1_800_000_000_000L);

    private final LeaseAcquirerFuzzTest.MemoryStore records = new LeaseAcquirerFuzzTest.MemoryStore();

    private final ClosingCounted store = new ClosingCounted(records);

    private final LeaseRuntimeOptions options = new LeaseRuntimeOptions(clock, new ManualScheduler(), WorkerIdCheckpoint.none());

    @Test
    void thePrimaryClosedFirstLeavesTheStoreOpenUntilItsLastSiblingCloses() {
        LeasedWorkerLease primary = new LeasedWorkerLease(store, SETTINGS, LAYOUT, options);
        LeaseGrant own = primary.currentGrant();
        WorkerLease sibling = primary.openSibling().orElseThrow();
        LeaseGrant extra = sibling.currentGrant();
        assertNotEquals(own.workerId(), extra.workerId());
        assertEquals(2, primary.freeWorkerIds().orElseThrow(), "two of four numbers held");
        primary.close();
        assertEquals(0, store.closes, "the sibling still uses the store");
        assertEquals(LeaseRecord.State.RELEASED, records.leases.get(own.workerId()).record().state());
        assertEquals(extra, sibling.currentGrant(), "the sibling keeps issuing");
        sibling.close();
        assertEquals(1, store.closes, "the last lease closes the store, once");
        assertEquals(LeaseRecord.State.RELEASED, records.leases.get(extra.workerId()).record().state());
        sibling.close();
        primary.close();
        assertEquals(1, store.closes, "closing again closes nothing");
        assertThrows(LeaseUnavailableException.class, primary::openSibling, "no sibling on a closed store");
    }

    /** Counts the closes of the store it forwards to. */
    private static final class ClosingCounted extends ForwardingLeaseStore {

        private int closes;

        ClosingCounted(final LeaseAcquirerFuzzTest.MemoryStore delegate) {
            super(delegate);
        }

        @Override
        public void close() {
            closes++;
            super.close();
        }
    }
}
