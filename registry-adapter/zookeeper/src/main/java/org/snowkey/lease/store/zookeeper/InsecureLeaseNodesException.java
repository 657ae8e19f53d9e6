package org.snowkey.lease.store.zookeeper;

/**
 * Lease nodes that someone other than the {@code zookeeper-digest} user may change: a configuration problem that
 * no retry cures, so start-up fails at once and names each node with its ACL.
 */
public final class InsecureLeaseNodesException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public InsecureLeaseNodesException(final String message) {
        super(message);
    }
}
