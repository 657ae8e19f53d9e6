package org.snowkey.store;

/**
 * A store (a database, a ZooKeeper ensemble) could not be reached or set up for use; the message names its address,
 * never credentials. Thrown by the store layer, which serves the worker-id leases and the segment allocators alike;
 * the lease layer maps it to its own {@code LeaseStoreUnavailableException} where a lease caller expects that type.
 */
public class StoreUnavailableException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public StoreUnavailableException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
