package org.snowkey.lease.store.zookeeper;

/**
 * Where and how the ZooKeeper lease store connects.
 *
 * @param serverLists {@code host:port[,host:port...]}
 * @param namespace the governance namespace; lease nodes live under {@code /<namespace>/snowkey}
 * @param digest {@code user:password} for the digest ACL of the lease nodes, or null for open nodes
 * @param connectionTimeoutMillis how long one operation waits for a connection before reporting the registry unreachable
 */
public record ZooKeeperStoreSettings(String serverLists, String namespace, String digest, int connectionTimeoutMillis) {

    /** Never print the password. */
    @Override
    public String toString() {
        return "ZooKeeperStoreSettings[" + serverLists + " /" + namespace + (digest == null ? "" : ", digest user " + digest.substring(0, digest.indexOf(':'))) + "]";
    }
}
