package org.snowkey.spring.autoconfigure;

/** No worker id could be leased while the application started; the message says from where and why. */
public class SnowKeyLeaseException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public SnowKeyLeaseException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
