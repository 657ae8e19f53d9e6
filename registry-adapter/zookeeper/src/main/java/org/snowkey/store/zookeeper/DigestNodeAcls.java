package org.snowkey.store.zookeeper;

import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;

/**
 * SnowKey's digest ACL, shared by the lease nodes ({@code LeaseNodeAcls}) and the segment nodes
 * ({@code SegmentNodeAcls}): what SnowKey gives every node it creates (everyone may read, only the digest user may
 * change), and the check that a node carries no more than that. A node someone else may write is a node someone else
 * may forge or set back, so with a digest configured SnowKey refuses such a node before it relies on it, naming the node
 * and its ACL.
 */
public final class DigestNodeAcls {

    private static final int FOREIGN_RIGHTS = ZooDefs.Perms.WRITE | ZooDefs.Perms.CREATE | ZooDefs.Perms.DELETE | ZooDefs.Perms.ADMIN;

    private final Id owner;

    /** @param digest {@code user:password} */
    public DigestNodeAcls(final String digest) {
        this.owner = ownerOf(digest);
    }

    private static Id ownerOf(final String digest) {
        try {
            return new Id("digest", DigestAuthenticationProvider.generateDigest(digest));
        } catch (final NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-1 digests are part of every Java runtime", ex);
        }
    }

    /** The ACL of every node SnowKey creates with this digest: everyone may read, only the digest user may change. */
    public static List<ACL> aclOf(final String digest) {
        // Not List.of: ZooKeeper asks the list whether it contains null, which immutable lists answer with an NPE.
        return Collections.unmodifiableList(new ArrayList<>(Arrays.asList(new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE),
                new ACL(ZooDefs.Perms.ALL, ownerOf(digest)))));
    }

    /** True when only the digest user may write, create, delete or administer the node. */
    public boolean isSafe(final List<ACL> actual) {
        return actual.stream().noneMatch(each -> (each.getPerms() & FOREIGN_RIGHTS) != 0 && !owner.equals(each.getId()));
    }

    /**
     * What is wrong with a node's ACL, read through {@code client}, or empty when only the digest user may change it (or
     * the node is gone: nothing left to trust).
     */
    public Optional<String> problemOf(final CuratorFramework client, final String path) throws Exception {
        List<ACL> actual;
        try {
            actual = client.getACL().forPath(path);
        } catch (final KeeperException.NoNodeException ex) {
            return Optional.empty();
        } catch (final KeeperException.NoAuthException ex) {
            return Optional.of("node " + path + " hides its ACL from the digest user");
        }
        return isSafe(actual) ? Optional.empty() : Optional.of("node " + path + " has ACL " + describe(actual));
    }

    /** "[world:anyone=cdrwa, digest:snowkey:...=r]", ZooKeeper's own notation for rights. */
    public static String describe(final List<ACL> acl) {
        return acl.stream().map(each -> each.getId().getScheme() + ":" + each.getId().getId() + "=" + rights(each.getPerms()))
                .collect(Collectors.joining(", ", "[", "]"));
    }

    private static String rights(final int perms) {
        StringBuilder result = new StringBuilder();
        result.append((perms & ZooDefs.Perms.CREATE) != 0 ? "c" : "");
        result.append((perms & ZooDefs.Perms.DELETE) != 0 ? "d" : "");
        result.append((perms & ZooDefs.Perms.READ) != 0 ? "r" : "");
        result.append((perms & ZooDefs.Perms.WRITE) != 0 ? "w" : "");
        result.append((perms & ZooDefs.Perms.ADMIN) != 0 ? "a" : "");
        return result.length() == 0 ? "-" : result.toString();
    }
}
