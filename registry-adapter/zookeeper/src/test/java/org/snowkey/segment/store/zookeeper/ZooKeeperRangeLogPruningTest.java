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
import org.snowkey.lease.testing.StartValuesFixtures;
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
            ZooKeeperRangeAllocator allocator = new ZooKeeperRangeAllocator(client, "prune", "pruner@host", StartValuesFixtures.everyKeyAtOne(), null, 5, 3);
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

    /**
     * Pruning deletes only the oldest ENTRIES: a foreign node in the log (an operator's note, a backup) that sorts before
     * "r-" was taken for the oldest entry and deleted, and one with children made every pruning fail (NotEmpty, logged at
     * debug), so the log grew unbounded again.
     */
    @Test
    void pruningLeavesForeignNodesAloneAndStillBoundsTheLog() throws Exception {
        try (TestingServer server = new TestingServer(true);
             CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(100))) {
            client.start();
            ZooKeeperRangeAllocator allocator = new ZooKeeperRangeAllocator(client, "prune", "pruner@host", StartValuesFixtures.everyKeyAtOne(), null, 5, 3);
            allocator.allocate("db.t_order", 10);
            String logPath = new ZooKeeperSegmentPaths("prune").log("db.t_order");
            client.create().forPath(logPath + "/archive");
            client.create().forPath(logPath + "/archive/2025");
            for (int i = 0; i < 40; i++) {
                allocator.allocate("db.t_order", 10);
            }
            assertTrue(client.checkExists().forPath(logPath + "/archive") != null, "a foreign node is no log entry to prune");
            long entries = client.getChildren().forPath(logPath).stream().filter(each -> each.startsWith("r-")).count();
            assertTrue(entries >= 5 && entries <= 5 + 3, "bounded despite a foreign node: " + entries);
        }
    }

    /**
     * ZooKeeper's sequence is a signed int printed with %010d: past 2,147,483,647 the names read "r--2147483648" and sort
     * BEFORE every older entry. Creates and deletes both advance it, about 2 per range with pruning on. Pruning then
     * deleted the newest entries, and the newest logged range (the floor of a counter re-created by hand) was a stale one.
     */
    @Test
    void entriesPastTheSequenceOverflowAreTheNewest() {
        List<String> names = new ArrayList<>(List.of("r--2147483647", "r-2147483646", "archive", "r--2147483648", "r-2147483647"));
        assertEquals(List.of("r-2147483646", "r-2147483647", "r--2147483648", "r--2147483647"), ZooKeeperSegmentPaths.entriesInOrder(names));
    }
}
