package org.snowkey.segment.store.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.StartValues;
import org.snowkey.segment.store.RangeLogEntry;
import org.snowkey.segment.store.RangeReconciliation;

/**
 * A key's log under ZooKeeper stays bounded: ZooKeeper returns a node's children in one reply of at most
 * {@code jute.maxbuffer}, so a log that only grew would one day be unreadable for the operations command. The most
 * recent entries stay, and what remains still reconciles.
 */
class ZooKeeperRangeLogPruningTest {

    @Test
    void theLogKeepsItsMostRecentEntriesAndStillReconciles() throws Exception {
        try (TestingServer server = new TestingServer(true);
             CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(100))) {
            client.start();
            // Keep 5 entries, prune once the log's sequence moved 3 past the last pruning.
            ZooKeeperRangeAllocator allocator = new ZooKeeperRangeAllocator(client, "prune", "pruner@host", StartValues.ofOne(), null, 5, 3);
            List<NumberRange> handedOut = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                handedOut.add(allocator.allocate("db.t_order", 10));
            }
            String logPath = new ZooKeeperSegmentPaths("prune").log("db.t_order");
            int entries = client.getChildren().forPath(logPath).size();
            assertTrue(entries >= 5 && entries <= 5 + 3, "bounded at the kept entries plus one pruning interval: " + entries);
            ZooKeeperRangeLog log = new ZooKeeperRangeLog(client, "prune");
            List<RangeLogEntry> recent = log.recent("db.t_order", 100);
            assertEquals(handedOut.get(handedOut.size() - 1), recent.get(recent.size() - 1).range(), "the newest entry stays");
            assertEquals(handedOut.get(handedOut.size() - entries), recent.get(0).range(), "the oldest entries went");
            assertEquals(entries, recent.size());
            RangeReconciliation reconciled = RangeReconciliation.ofLog(log, "db.t_order", 100);
            assertTrue(reconciled.overlaps().isEmpty(), reconciled.report());
            assertEquals(List.of(), reconciled.gaps(), "the entries kept are contiguous: " + reconciled.report());
            assertEquals(new NumberRange(401, 410), allocator.allocate("db.t_order", 10), "allocation goes on from the counter");
        }
    }
}
