package org.snowkey.keygen.lease;

/** No worker id can be issued on: the lease is lost, exhausted, unreachable or released. Fails closed. */
public class LeaseUnavailableException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public LeaseUnavailableException(final String message) {
        super(message);
    }

    public LeaseUnavailableException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
