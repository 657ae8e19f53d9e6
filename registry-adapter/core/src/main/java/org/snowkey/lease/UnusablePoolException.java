package org.snowkey.lease;

/**
 * The pool as found in the store cannot be used by this instance, and no retry would change that, so start-up fails
 * at once with the message: the pool is used with another id layout (instances of one pool with different
 * {@code worker-id-bits}, {@code sequence-low-bits} or {@code epoch} issue the same ids), or its lease nodes may be
 * changed by someone other than the {@code zookeeper-digest} user (the message names each node and its ACL).
 */
public final class UnusablePoolException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public UnusablePoolException(final String message) {
        super(message);
    }
}
