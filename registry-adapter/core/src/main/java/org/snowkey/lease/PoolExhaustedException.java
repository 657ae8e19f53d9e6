package org.snowkey.lease;

/** Every number of a pool is held (or corrupt): nothing can be acquired now. The message names pool, size and holders. */
public class PoolExhaustedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public PoolExhaustedException(final String message) {
        super(message);
    }
}
