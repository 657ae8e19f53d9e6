package org.snowkey.segment.store.zookeeper;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.framework.api.transaction.OperationType;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.RangeAllocator;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.segment.store.CounterRanges;
import org.snowkey.segment.store.RangeLogEntry;
import org.snowkey.segment.store.RangeLogJson;
import org.snowkey.segment.store.SegmentKeys;
import org.snowkey.keygen.segment.StartValues;

/**
 * Ranges from a counter node per key (layout in {@link ZooKeeperSegmentPaths}).
 *
 * <p>An allocation reads the counter and its data version, then writes in ONE multi-op: the counter set to the range's
 * last + 1 <em>if its version is still the one read</em>, and the range's log entry as a persistent-sequential node.
 * ZooKeeper applies both or neither. A concurrent allocation that got there first makes the version check fail
 * ({@code BADVERSION}): this one reads again and retries, so two callers never get the same numbers. A multi-op that
 * was applied but whose answer was lost (connection loss, a request timeout, or Curator's own retry of it, which then
 * fails on the version) leaves a logged range nobody uses, a gap: the next call reads the advanced counter.
 *
 * <p>A key's counter starts at its start value (above every logged range of the key, should the counter have been
 * deleted by hand) and a counter below it is raised in the next allocation (the numbers skipped appear as a gap in the
 * log). Ranges end at 2^53 - 1 at the latest. Deleting a counter while allocators run is not safe: a recreated node
 * starts again at data version 0, which an allocation in flight may have read from the old one.
 *
 * <p>With {@code zookeeper-digest}, a key's nodes and their parents are checked before its first allocation and
 * refused when anyone else may change them ({@link SegmentNodeAcls}).
 */
public final class ZooKeeperRangeAllocator implements RangeAllocator {

    /** Conflicts mean other allocators are progressing; one caller losing every race this long means something is wrong. */
    private static final long GIVE_UP_NANOS = TimeUnit.SECONDS.toNanos(10);

    /**
     * How many of a key's most recent log entries stay. ZooKeeper answers a node's child list in one reply, bounded by
     * {@code jute.maxbuffer} (1 MB by default, about 65,000 entry names): an unpruned log of a busy key (a range every
     * few seconds) would outgrow it within weeks, and then neither the operations command nor a counter re-created by
     * hand could read it. 20,000 entries (about 320 KB of names) are days of ranges at the default step, enough to
     * reconcile recent history; the database allocator's log table keeps everything.
     */
    static final int LOG_ENTRIES_KEPT = 20_000;

    /** How far a key's log sequence moves between two prunings by one allocator: one listing per 1,000 ranges. */
    static final int PRUNE_EVERY = 1_000;

    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperRangeAllocator.class);

    /** The log sequence at which this allocator last pruned each key. */
    private final Map<String, Long> lastPruned = new ConcurrentHashMap<>();

    private final int logEntriesKept;

    private final int pruneEvery;

    private final ZooKeeperSegmentNodes nodes;

    private final ZooKeeperRangeLog log;

    private final String owner;

    private final StartValues starts;

    /** Checks the ACL of a key's nodes before its first allocation when a digest is set; null without one (open nodes by design). */
    private final SegmentNodeAcls acls;

    /** Keys whose nodes passed the ACL check; each is checked once, before its first allocation. */
    private final Set<String> verifiedKeys = ConcurrentHashMap.newKeySet();

    /**
     * Without a digest: the nodes are open to every client of the ensemble, by design.
     *
     * @see #ZooKeeperRangeAllocator(CuratorFramework, String, String, StartValues, String)
     */
    public ZooKeeperRangeAllocator(final CuratorFramework client, final String namespace, final String owner, final StartValues starts) {
        this(client, namespace, owner, starts, null);
    }

    /**
     * @param client    a started Curator client without a Curator namespace (paths start at the ensemble's root); with a
     *                  digest, one that authenticates with it and gives the nodes it creates SnowKey's ACL
     *                  ({@code ZooKeeperClients.start})
     * @param namespace the first path element, as for the worker-id leases (ShardingSphere's cluster namespace)
     * @param owner     written into each log entry, to tell who took a range
     * @param starts    the first number of each key
     * @param digest    {@code user:password} of {@code zookeeper-digest}, or null: with one, a key's nodes that anyone else
     *                  may change are refused before its first allocation ({@link SegmentNodeAcls})
     */
    public ZooKeeperRangeAllocator(final CuratorFramework client, final String namespace, final String owner, final StartValues starts, final String digest) {
        this(client, namespace, owner, starts, digest, LOG_ENTRIES_KEPT, PRUNE_EVERY);
    }

    /**
     * @param logEntriesKept how many of a key's most recent log entries stay (see {@link #LOG_ENTRIES_KEPT})
     * @param pruneEvery     how far the log's sequence moves between two prunings (see {@link #PRUNE_EVERY})
     */
    ZooKeeperRangeAllocator(final CuratorFramework client, final String namespace, final String owner, final StartValues starts, final String digest,
                            final int logEntriesKept, final int pruneEvery) {
        this.logEntriesKept = logEntriesKept;
        this.pruneEvery = pruneEvery;
        this.nodes = new ZooKeeperSegmentNodes(client, namespace);
        this.log = new ZooKeeperRangeLog(nodes);
        this.owner = SegmentKeys.checkOwner(owner);
        this.starts = starts;
        this.acls = digest == null ? null : new SegmentNodeAcls(nodes, digest);
    }

    /**
     * Before the first allocation of a key with a digest set: creates what is missing (with SnowKey's ACL), then refuses
     * nodes that anyone else may change. Afterwards nobody else can change, create or delete them.
     */
    private void verifyAcls(final String key) {
        if (acls == null || verifiedKeys.contains(key)) {
            return;
        }
        // Created before the check, so that no parent can appear open between the check and the first allocation;
        // only when missing, since creating reads the key's log.
        if (missing(nodes.paths().counter(key)) || missing(nodes.paths().log(key))) {
            createKey(key);
        }
        acls.verify(key);
        verifiedKeys.add(key);
    }

    private boolean missing(final String path) {
        try {
            return nodes.client().checkExists().forPath(path) == null;
        } catch (final Exception ex) {
            throw nodes.failure("look for " + path, ex);
        }
    }

    @Override
    public NumberRange allocate(final String key, final long size) {
        SegmentKeys.check(key);
        long wanted = Math.min(SegmentKeys.checkSize(key, size), NumberRange.MAX_KEY);
        String counter = nodes.paths().counter(key);
        verifyAcls(key);
        long deadline = System.nanoTime() + GIVE_UP_NANOS;
        int conflicts = 0;
        while (true) {
            Stat stat = new Stat();
            byte[] data;
            try {
                data = nodes.client().getData().storingStatIn(stat).forPath(counter);
            } catch (final KeeperException.NoNodeException ex) {
                createKey(key);
                continue;
            } catch (final Exception ex) {
                throw nodes.failure("read segment counter " + counter, ex);
            }
            NumberRange range = CounterRanges.next(key, counter, nodes.parseCounter(counter, data), starts, wanted, nodes.describe());
            try {
                CuratorFramework client = nodes.client();
                List<CuratorTransactionResult> results = client.transaction().forOperations(
                        client.transactionOp().setData().withVersion(stat.getVersion()).forPath(counter, ZooKeeperSegmentNodes.counterText(range.last() + 1)),
                        client.transactionOp().create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(nodes.paths().entryPrefix(key),
                                RangeLogJson.write(range, owner, System.currentTimeMillis())));
                pruneLog(key, results);
                return range;
            } catch (final KeeperException.BadVersionException | KeeperException.NoNodeException ex) {
                // Another allocation advanced the counter first (or a node was deleted by hand): read again.
                conflicts++;
                if (System.nanoTime() - deadline > 0) {
                    throw new RangeUnavailableException("SnowKey could not allocate numbers of key '" + key + "' on " + nodes.describe() + ": " + conflicts
                            + " allocations by others won the race for " + counter + " in a row, the last with " + ex.code(), ex);
                }
                if (ex instanceof KeeperException.NoNodeException) {
                    createKey(key);
                }
            } catch (final Exception ex) {
                throw nodes.failure("allocate " + range + " of key '" + key + "' at " + counter, ex);
            }
        }
    }

    /**
     * Keeps a key's log at about {@link #logEntriesKept} entries: once this allocator has seen the log's sequence move
     * {@code pruneEvery} ({@link #PRUNE_EVERY}) past its last pruning, it lists the entries and deletes the oldest beyond that many. (Not one
     * delete per allocation by arithmetic on names: a delete also advances the parent's sequence, so names skip.)
     * Housekeeping only, after the range is ours: an entry already gone (another allocator pruned it) or any failure
     * leaves the range handed out, never fails it.
     */
    private void pruneLog(final String key, final List<CuratorTransactionResult> results) {
        String created = results.stream().filter(each -> each.getType() == OperationType.CREATE).map(CuratorTransactionResult::getResultPath).findFirst().orElse(null);
        if (created == null) {
            return;
        }
        // Unsigned: past 2^31 - 1 ZooKeeper names entries "r--2147483648" on (see ZooKeeperSegmentPaths.sequenceOf).
        long sequence = ZooKeeperSegmentPaths.sequenceOf(created.substring(created.lastIndexOf('/') + 1));
        if (sequence < 0) {
            return;
        }
        Long last = lastPruned.get(key);
        if (last != null && sequence - last < pruneEvery) {
            return;
        }
        lastPruned.put(key, sequence);
        String logPath = nodes.paths().log(key);
        try {
            // Entries only, by sequence: a foreign node sorting before "r-" was deleted as the oldest entry (or, with
            // children, failed every pruning), and entries past the sequence overflow sorted before the oldest.
            List<String> names = ZooKeeperSegmentPaths.entriesInOrder(nodes.client().getChildren().forPath(logPath));
            for (int i = 0; i < names.size() - logEntriesKept; i++) {
                try {
                    nodes.client().delete().forPath(logPath + "/" + names.get(i));
                } catch (final KeeperException.NoNodeException ex) {
                    // Pruned by another allocator.
                }
            }
        } catch (final Exception ex) {
            if (ex instanceof InterruptedException) {
                // The range is handed out all the same; the caller's interrupt must not be swallowed with the pruning.
                Thread.currentThread().interrupt();
            }
            LOG.debug("SnowKey could not prune the segment log of key '{}': {}", key, ex.toString());
        }
    }

    /**
     * Creates the key's log parent and counter; either existing already is fine, whoever created it. The counter starts
     * at the start value, or above the highest logged range should the counter have been deleted by hand.
     */
    private void createKey(final String key) {
        String log = nodes.paths().log(key);
        String counter = nodes.paths().counter(key);
        try {
            nodes.client().create().creatingParentsIfNeeded().forPath(log);
        } catch (final KeeperException.NodeExistsException ex) {
            // Created by another allocator.
        } catch (final Exception ex) {
            throw nodes.failure("create segment log node " + log, ex);
        }
        long first = Math.max(starts.startOf(key), highestLogged(key) + 1);
        try {
            nodes.client().create().creatingParentsIfNeeded().forPath(counter, ZooKeeperSegmentNodes.counterText(first));
        } catch (final KeeperException.NodeExistsException ex) {
            // Created by another allocator.
        } catch (final Exception ex) {
            throw nodes.failure("create segment counter " + counter, ex);
        }
    }

    private long highestLogged(final String key) {
        List<RangeLogEntry> last = log.recent(key, 1);
        return last.isEmpty() ? 0L : last.get(0).range().last();
    }

    @Override
    public String describe() {
        return nodes.describe();
    }

    @Override
    public String toString() {
        return "ZooKeeperRangeAllocator[" + describe() + ", owner=" + owner + "]";
    }
}
