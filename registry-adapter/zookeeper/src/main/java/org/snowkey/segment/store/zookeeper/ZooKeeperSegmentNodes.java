package org.snowkey.segment.store.zookeeper;

import java.nio.charset.StandardCharsets;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.snowkey.keygen.segment.RangeUnavailableException;

/**
 * What the allocator and the log share: the paths, the counter's text form, and turning Curator's errors into
 * {@link RangeUnavailableException}s that name the ensemble, the node and the cause. The client (its retry policy,
 * request timeout, ACL provider and digest) belongs to the caller; nodes created here get the client's ACLs.
 */
final class ZooKeeperSegmentNodes {

    private final CuratorFramework client;

    private final ZooKeeperSegmentPaths paths;

    ZooKeeperSegmentNodes(final CuratorFramework client, final String namespace) {
        if (client == null) {
            throw new IllegalArgumentException("no ZooKeeper client for the segment nodes");
        }
        this.client = client;
        this.paths = new ZooKeeperSegmentPaths(namespace);
    }

    CuratorFramework client() {
        return client;
    }

    ZooKeeperSegmentPaths paths() {
        return paths;
    }

    String describe() {
        return "zookeeper " + client.getZookeeperClient().getCurrentConnectionString() + " " + paths.counters();
    }

    static byte[] counterText(final long nextValue) {
        return Long.toString(nextValue).getBytes(StandardCharsets.US_ASCII);
    }

    /** The counter's value; a node holding anything else is reported with its content, never taken for a number. */
    long parseCounter(final String path, final byte[] data) {
        String text = data == null ? "" : new String(data, StandardCharsets.UTF_8);
        try {
            return Long.parseLong(text.trim());
        } catch (final NumberFormatException ex) {
            throw new RangeUnavailableException("SnowKey found the segment counter " + path + " on " + describe() + " holding '" + text
                    + "', not a number: set it by hand above every range logged under its segment-log node", ex);
        }
    }

    RangeUnavailableException failure(final String operation, final Exception ex) {
        if (ex instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            return new RangeUnavailableException("SnowKey was interrupted while it tried to " + operation + " on " + describe(), ex);
        }
        if (ex instanceof KeeperException.NoAuthException) {
            return new RangeUnavailableException("SnowKey is not allowed to " + operation + " on " + describe()
                    + ": the segment nodes carry an ACL; give the client the digest they were created with", ex);
        }
        String cause = ex instanceof KeeperException keeper ? keeper.code() + (keeper.getPath() == null ? "" : " at " + keeper.getPath()) : ex.toString();
        // A failed write may still have been applied (a lost answer): harmless, the next allocation reads the counter again.
        return new RangeUnavailableException("SnowKey could not " + operation + " on " + describe() + ": " + cause, ex);
    }
}
