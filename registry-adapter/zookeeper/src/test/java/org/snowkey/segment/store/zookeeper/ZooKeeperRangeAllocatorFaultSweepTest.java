package org.snowkey.segment.store.zookeeper;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.segment.StartValues;
import org.snowkey.lease.store.zookeeper.faults.ZooKeeperFaultSweep;
import org.snowkey.lease.testing.faults.StoreFault;
import org.snowkey.lease.testing.faults.SweptRanges;
import org.snowkey.store.zookeeper.FaultInjectedClients;

/**
 * Every ZooKeeper call of the range allocator fails once, in each way ({@link StoreFault}): with a digest, the ACL
 * check of a key's nodes (the existence probes, their creation, the ACL reads), the counter's creation (with the read
 * of the log it starts above), the counter read, the multi-op that advances it and logs the range, the log's pruning,
 * and the counter created again above the log after an operator deleted it. Two allocators take ranges of one key in
 * turn; whatever fails, no number is handed out in two ranges, and a new allocator gets a range after every fault.
 */
class ZooKeeperRangeAllocatorFaultSweepTest {

    private static final String DIGEST = "snowkey:Zk-Faults-7";

    private static final String KEY = "ds_0.t_order";

    @Test
    void noStoreFaultMakesTwoRangesOverlap() {
        List<String> injected = new ZooKeeperFaultSweep("range-sweep", 1).sweep(this::scenario);
        System.out.println("ZooKeeperRangeAllocatorFaultSweepTest: " + injected.size() + " faults injected: " + injected);
        assertTrue(injected.size() >= 20, "too few faults fired to call this a sweep: " + injected);
    }

    private void scenario(final ZooKeeperFaultSweep.Run run) {
        // One client for both allocators, to keep a run short; each allocator checks the ACLs and prunes on its own.
        try (CuratorFramework client = FaultInjectedClients.client(run, DIGEST)) {
            StartValues starts = new StartValues(1L, Map.of(KEY, 100L));
            // Two entries kept, pruned every second range: the pruning's listing and deletes run in every scenario.
            ZooKeeperRangeAllocator faulty = new ZooKeeperRangeAllocator(client, run.namespace(), "faulty", starts, DIGEST, 2, 2);
            ZooKeeperRangeAllocator other = new ZooKeeperRangeAllocator(client, run.namespace(), "other", starts, DIGEST, 2, 2);
            SweptRanges ranges = new SweptRanges();
            for (int round = 0; round < 3; round++) {
                ranges.allocate(faulty, KEY, 10);
                ranges.allocate(other, KEY, 10);
            }
            // An operator deleted the counter while no allocation ran: it is created again above every logged range.
            client.delete().forPath("/" + run.namespace() + "/snowkey/segments/" + ZooKeeperSegmentPaths.encode(KEY));
            ranges.allocate(faulty, KEY, 10);
            ranges.allocate(other, KEY, 10);
            ranges.allocate(new ZooKeeperRangeAllocator(client, run.namespace(), "late", starts, DIGEST, 2, 2), KEY, 10);
            ranges.checkDisjoint();
        } catch (final RuntimeException | AssertionError ex) {
            throw ex;
        } catch (final Exception ex) {
            throw new IllegalStateException(ex);
        }
    }
}
