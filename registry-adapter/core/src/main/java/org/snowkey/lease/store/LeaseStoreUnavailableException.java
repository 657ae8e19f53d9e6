package org.snowkey.lease.store;

/** The registry could not be reached or did not answer; the message names its address (never credentials). */
public class LeaseStoreUnavailableException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public LeaseStoreUnavailableException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
