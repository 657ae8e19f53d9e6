package org.snowkey.store.zookeeper;

/**
 * Where and how a ZooKeeper client of SnowKey (the lease store's, the segment allocator's) connects.
 *
 * @param serverLists {@code host:port[,host:port...]}
 * @param namespace the governance namespace; SnowKey's nodes (leases, segments) live under {@code /<namespace>/snowkey}
 * @param digest {@code user:password} for the digest ACL of SnowKey's nodes, or null for open nodes
 * @param connectionTimeoutMillis how long one operation waits for a connection before reporting ZooKeeper unreachable
 */
public record ZooKeeperStoreSettings(String serverLists, String namespace, String digest, int connectionTimeoutMillis) {

    /** Never print the password. */
    @Override
    public String toString() {
        return "ZooKeeperStoreSettings[" + serverLists + " /" + namespace + (digest == null ? "" : ", digest user " + digest.substring(0, digest.indexOf(':'))) + "]";
    }
}
