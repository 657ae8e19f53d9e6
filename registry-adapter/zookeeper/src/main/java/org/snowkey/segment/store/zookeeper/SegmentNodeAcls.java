package org.snowkey.segment.store.zookeeper;

import java.util.ArrayList;
import java.util.List;

import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.store.zookeeper.DigestNodeAcls;

/**
 * With {@code zookeeper-digest} set, the segment nodes of a key must be SnowKey's alone before the first range is taken
 * from them: a counter someone else may write can be set back (the next allocation hands out keys issued before), and
 * a parent someone else may write lets them delete the counter and create it again lower. So SnowKey's root, the
 * {@code segments} and {@code segment-log} nodes, the key's counter and the key's log node must give write, create,
 * delete and admin rights to the digest user only; a node prepared open by someone else is refused, naming it and
 * its ACL, as the lease nodes are ({@code LeaseNodeAcls}).
 *
 * <p>The log entries are not read one by one (a busy key has thousands): once the key's log node is SnowKey's, nobody
 * else can add or delete entries, and SnowKey creates its own with its ACL. The namespace node is not SnowKey's
 * (ShardingSphere owns it in Cluster mode), and nothing under SnowKey's root can be removed through it.
 */
final class SegmentNodeAcls {

    private final ZooKeeperSegmentNodes nodes;

    private final DigestNodeAcls acls;

    private final String digestUser;

    /** @param digest {@code user:password} */
    SegmentNodeAcls(final ZooKeeperSegmentNodes nodes, final String digest) {
        this.nodes = nodes;
        this.acls = new DigestNodeAcls(digest);
        this.digestUser = digest.substring(0, digest.indexOf(':'));
    }

    /**
     * Checks the nodes of {@code key}, which exist by now (created with SnowKey's ACL where they were missing).
     *
     * @throws RangeUnavailableException naming each node someone else may change, and its ACL
     */
    void verify(final String key) {
        ZooKeeperSegmentPaths paths = nodes.paths();
        List<String> problems = new ArrayList<>();
        for (String each : List.of(paths.root(), paths.counters(), paths.logs(), paths.counter(key), paths.log(key))) {
            try {
                acls.problemOf(nodes.client(), each).ifPresent(problems::add);
            } catch (final Exception ex) {
                throw nodes.failure("check the ACL of " + each, ex);
            }
        }
        if (!problems.isEmpty()) {
            throw new RangeUnavailableException("SnowKey refuses to take ranges of key '" + key + "' from segment nodes that others may change on "
                    + nodes.describe() + " (zookeeper-digest is set, so only its user '" + digestUser + "' may write them; a counter set back there would "
                    + "hand out keys twice): " + String.join("; ", problems) + ". If these nodes are yours, check that each counter lies above every range "
                    + "logged for its key, then give them SnowKey's ACL (world:anyone:r and digest " + digestUser + ":cdrwa), e.g. with zkCli's setAcl");
        }
    }
}
