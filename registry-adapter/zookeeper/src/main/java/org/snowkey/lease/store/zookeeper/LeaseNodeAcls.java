package org.snowkey.lease.store.zookeeper;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.snowkey.lease.admin.LeaseAdmin;
import org.snowkey.lease.UnusablePoolException;
import org.snowkey.lease.store.CorruptLeaseRecordException;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.LeaseRecordJson;
import org.snowkey.store.zookeeper.DigestNodeAcls;

/**
 * The digest ACL of the lease nodes ({@link DigestNodeAcls}, shared with the segment nodes): the start-up check that every node a pool relies on carries no more than that, and the
 * deliberate repair.
 *
 * <p>A node someone else may write is a node someone else may forge: a client that created SnowKey's parent path
 * with an open ACL before SnowKey first started could delete lease records or plant a RELEASED one with
 * {@code reservedUntil = 0}, and a successor trusting it would reissue ids. So with a digest configured, the root
 * ({@code /<namespace>/snowkey}), the pool, its {@code workers} node and every record must give write, create,
 * delete and admin rights to the digest user only. The namespace node itself is not SnowKey's (ShardingSphere may own
 * it) and nothing under SnowKey's root can be changed through it: deleting a node needs it empty, and SnowKey's root
 * never is once the pool exists.
 */
final class LeaseNodeAcls {

    /** The node under the pool that marks a repair between its first lock and its last pass (SnowKey's ACL). */
    static final String UNFINISHED_REPAIR = "acl-repair-unfinished";

    private final CuratorFramework client;

    private final DigestNodeAcls digestAcls;

    private final List<ACL> acl;

    /** @param digest {@code user:password} */
    LeaseNodeAcls(final CuratorFramework client, final String digest) {
        this.client = client;
        this.digestAcls = new DigestNodeAcls(digest);
        this.acl = aclOf(digest);
    }

    /** The ACL of every node SnowKey creates with this digest (see {@link DigestNodeAcls#aclOf}). */
    static List<ACL> aclOf(final String digest) {
        return DigestNodeAcls.aclOf(digest);
    }

    /**
     * Creates the pool's path if missing (with SnowKey's ACL) and checks every node of it.
     *
     * @throws UnusablePoolException naming each node someone else may change, and its ACL
     */
    void verify(final String root, final String pool) throws Exception {
        List<String> problems = new ArrayList<>();
        for (String each : nodesOf(root, pool)) {
            describeProblem(each).ifPresent(problems::add);
        }
        if (!problems.isEmpty()) {
            throw new UnusablePoolException("SnowKey refuses to use lease nodes that others may change (zookeeper-digest is set, so only its user may "
                    + "write them; a record planted there could make a successor reissue ids): " + String.join("; ", problems) + ". If these nodes are yours, "
                    + "lock them on purpose with the operations tool: LeaseCli --registry zookeeper ... --pool " + pool + " repair-acl " + LeaseAdmin.CONFIRM);
        }
    }

    private Optional<String> describeProblem(final String path) throws Exception {
        return digestAcls.problemOf(client, path);
    }

    /** True when only the digest user may write, create, delete or administer the node. */
    boolean isSafe(final List<ACL> actual) {
        return digestAcls.isSafe(actual);
    }

    static String describe(final List<ACL> acl) {
        return DigestNodeAcls.describe(acl);
    }

    /** Root, pool, workers and every record, parents first; the path is created first when missing. */
    private List<String> nodesOf(final String root, final String pool) throws Exception {
        String workers = root + "/" + pool + "/workers";
        try {
            client.create().creatingParentsIfNeeded().forPath(workers);
        } catch (final KeeperException.NodeExistsException ex) {
            // The usual case after the first start.
        }
        List<String> result = new ArrayList<>(List.of(root, root + "/" + pool, workers));
        for (String each : client.getChildren().forPath(workers)) {
            result.add(workers + "/" + each);
        }
        return result;
    }

    /**
     * Gives every node of the pool SnowKey's ACL, on an operator's explicit request. Records written while someone
     * else could write may be forged, so when any node was open, each record's reservation is raised to at least
     * {@code now + leaseDurationMillis}: no genuine holder can have reserved further ahead, so a successor starts above
     * everything a real holder issued whatever the record claimed. A holder still running finds its own record, with
     * the raised reservation, at its next renewal and keeps its number: the reservation only grew, so its fence holds.
     * Its release keeps the raised reservation (a holder displaced by a forgery may issue up to it), so the next holder
     * still starts above it.
     *
     * @return the number of nodes changed
     */
    int repair(final String root, final String pool, final long nowMillis, final long leaseDurationMillis, final PrintStream out) throws Exception {
        List<String> nodes = nodesOf(root, pool);
        Map<String, OpenNode> open = new LinkedHashMap<>();
        for (String each : nodes) {
            Stat stat = new Stat();
            List<ACL> actual = client.getACL().storingStatIn(stat).forPath(each);
            if (!isSafe(actual)) {
                open.put(each, new OpenNode(stat.getAversion(), describe(actual)));
            }
        }
        String unfinished = root + "/" + pool + "/" + UNFINISHED_REPAIR;
        boolean cutBefore = client.checkExists().forPath(unfinished) != null;
        if (open.isEmpty() && !cutBefore) {
            out.printf("every node of pool '%s' under %s already carries SnowKey's ACL; nothing changed%n", pool, root);
            return 0;
        }
        if (cutBefore) {
            out.printf("a repair of pool '%s' under %s was cut before its last pass: repeating the passes%n", pool, root);
        } else {
            // Marked before the first lock, cleared after the last pass: a repair cut after its last lock (the answer
            // lost) leaves the mark, and the operator's re-run, which finds every node locked, still runs both passes.
            try {
                client.create().withACL(acl).forPath(unfinished);
            } catch (final KeeperException.NodeExistsException ex) {
                // Another operator's repair runs at the same time.
            }
        }
        // Every record is re-reserved BEFORE any node is locked: a repair cut after its last lock (the answer lost) is
        // run again by the operator against nodes that are all locked; re-reserving only after the locks left a forged
        // reservation in place for good. The pass after the locks raises what was rewritten between the first pass and
        // the lock (nobody else can write after it), on the re-run too: the mark above says the pass was never reached.
        String workers = root + "/" + pool + "/workers";
        List<String> records = nodes.subList(3, nodes.size());
        int changed = reReserveAll(pool, workers, records, nowMillis + leaseDurationMillis, out, true);
        for (Map.Entry<String, OpenNode> each : open.entrySet()) {
            client.setACL().withVersion(each.getValue().aclVersion()).withACL(acl).forPath(each.getKey());
            out.printf("locked %s (was %s)%n", each.getKey(), each.getValue().acl());
            changed++;
        }
        changed += reReserveAll(pool, workers, records, nowMillis + leaseDurationMillis, out, false);
        try {
            client.delete().forPath(unfinished);
        } catch (final KeeperException.NoNodeException ex) {
            // Cleared by another operator's repair that ran at the same time.
        }
        return changed;
    }

    /** A node found open: its ACL version (the lock is a compare-and-set on it) and its ACL, for the operator. */
    private record OpenNode(int aclVersion, String acl) {
    }

    /** @param reportNodesLeftAlone whether to name the nodes it leaves alone (once per repair, not once per pass) */
    private int reReserveAll(final String pool, final String workers, final List<String> records, final long floor, final PrintStream out,
                             final boolean reportNodesLeftAlone) throws Exception {
        int changed = 0;
        for (String each : records) {
            changed += reReserve(pool, workers, each.substring(workers.length() + 1), floor, out, reportNodesLeftAlone);
        }
        return changed;
    }

    private int reReserve(final String pool, final String workers, final String child, final long floor, final PrintStream out,
                          final boolean reportNodesLeftAlone) throws Exception {
        String path = workers + "/" + child;
        int workerId;
        try {
            workerId = Integer.parseInt(child);
        } catch (final NumberFormatException ex) {
            if (reportNodesLeftAlone) {
                out.printf("left %s alone: not a worker id, SnowKey never reads it%n", path);
            }
            return 0;
        }
        Stat stat = new Stat();
        byte[] data = client.getData().storingStatIn(stat).forPath(path);
        LeaseRecord record;
        try {
            record = LeaseRecordJson.read("zookeeper node " + path, pool, workerId, data);
        } catch (final CorruptLeaseRecordException ex) {
            if (reportNodesLeftAlone) {
                out.printf("left %s as it is: it cannot be parsed, so SnowKey never claims it (%s)%n", path, ex.getMessage());
            }
            return 0;
        }
        if (record.reservedUntil() >= floor) {
            return 0;
        }
        // Every other field is kept: the layout above all, which refuses instances whose ids would repeat this pool's.
        LeaseRecord raised = record.withTimes(Math.max(record.expiresAt(), floor), floor);
        try {
            client.setData().withVersion(stat.getVersion()).forPath(path, LeaseRecordJson.write(raised));
        } catch (final KeeperException.BadVersionException ex) {
            out.printf("%s changed while repairing; run repair-acl again%n", path);
            return 0;
        }
        out.printf("reserved %s until %s (was %s): it was written while others could write there%n", path, Instant.ofEpochMilli(floor),
                Instant.ofEpochMilli(record.reservedUntil()));
        return 1;
    }
}
