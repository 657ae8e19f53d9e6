package org.snowkey.keygen.generator;

/**
 * No id can be issued now without risking a duplicate: the clock moved back further than the tolerance, the
 * lease ceiling was reached, the lease was lost, or the timestamp bits ran out. The generator fails closed.
 */
public class IdUnavailableException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public IdUnavailableException(final String message) {
        super(message);
    }

    public IdUnavailableException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
