package org.snowkey.lease.store;

/**
 * A lease record together with the store's version of it, the value a compare-and-set must name.
 * ZooKeeper uses the node's data version; the JDBC store a version column bumped by every write.
 */
public record StoredLease(LeaseRecord record, long storeVersion) {
}
