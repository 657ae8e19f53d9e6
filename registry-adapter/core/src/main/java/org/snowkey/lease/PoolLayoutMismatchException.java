package org.snowkey.lease;

/**
 * The pool is used with another id layout than this instance's. Instances of one pool with different
 * {@code worker-id-bits}, {@code sequence-low-bits} or {@code epoch} issue the same ids, so this is never retried:
 * start-up fails with the message.
 */
public final class PoolLayoutMismatchException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public PoolLayoutMismatchException(final String message) {
        super(message);
    }
}
