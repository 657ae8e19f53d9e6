package org.snowkey.segment.store.etcd;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.snowkey.keygen.segment.StartValues;
import org.snowkey.lease.testing.faults.FaultSchedule;
import org.snowkey.lease.testing.faults.StoreFault;
import org.snowkey.lease.testing.faults.StoreFaultSweep;
import org.snowkey.lease.testing.faults.SweptRanges;
import org.snowkey.store.etcd.EtcdClient;
import org.snowkey.store.etcd.EtcdStoreSettings;
import org.snowkey.store.etcd.EtcdTestServer;
import org.snowkey.store.etcd.EtcdTxn;
import org.snowkey.store.etcd.FaultInjectingEtcdClient;

/**
 * Every etcd request of the range allocator fails once, in each way ({@link StoreFault}): the read of the counter and
 * the newest log entry (one read-only transaction), the transaction that advances the counter and logs the range (failing
 * before etcd applied it, or applied with its answer lost), and the counter created again above the log after an
 * operator deleted it. Two allocators take ranges of one key in turn; whatever fails, no number is handed out in two
 * ranges, and a new allocator gets a range after every fault.
 */
class EtcdRangeAllocatorFaultSweepTest {

    private static final String KEY = "ds_0.t_order";

    @RegisterExtension
    static final EtcdTestServer.PerClass ETCD = new EtcdTestServer.PerClass();

    private record Run(EtcdStoreSettings settings, FaultSchedule schedule) {
    }

    @Test
    void noStoreFaultMakesTwoRangesOverlap() {
        StoreFaultSweep<Run> sweep = new StoreFaultSweep<>(2, List.of(StoreFault.values()),
                description -> new Run(ETCD.server().settings("sweep" + UUID.randomUUID().toString().replace("-", "").substring(0, 12)), new FaultSchedule()), Run::schedule);
        List<String> injected = sweep.sweep(this::scenario);
        System.out.println("EtcdRangeAllocatorFaultSweepTest: " + injected.size() + " faults injected: " + injected);
        // Two request sites (the read, the write), each failing at its first two calls in three ways.
        assertTrue(injected.size() >= 12, "too few faults fired to call this a sweep: " + injected);
    }

    private void scenario(final Run run) {
        try (EtcdClient client = new FaultInjectingEtcdClient(run.settings(), run.schedule()); EtcdClient operator = new EtcdClient(run.settings())) {
            StartValues starts = new StartValues(1L, Map.of(KEY, 100L));
            EtcdRangeAllocator faulty = new EtcdRangeAllocator(client, "faulty", starts);
            EtcdRangeAllocator other = new EtcdRangeAllocator(client, "other", starts);
            SweptRanges ranges = new SweptRanges();
            for (int round = 0; round < 3; round++) {
                ranges.allocate(faulty, KEY, 10);
                ranges.allocate(other, KEY, 10);
            }
            // An operator deleted the counter while no allocation ran: it is created again above every logged range.
            String counter = run.settings().root() + "/segments/" + KEY;
            long revision = operator.get(counter).orElseThrow().modRevision();
            assertTrue(operator.txn(new EtcdTxn().ifModRevision(counter, revision).delete(counter)).succeeded());
            ranges.allocate(faulty, KEY, 10);
            ranges.allocate(other, KEY, 10);
            ranges.allocate(new EtcdRangeAllocator(client, "late", starts), KEY, 10);
            ranges.checkDisjoint();
        }
    }
}
