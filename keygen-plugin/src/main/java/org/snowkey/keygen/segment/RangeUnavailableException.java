package org.snowkey.keygen.segment;

/** No range of keys can be had: the allocator's store is unreachable, refused the write, or the key space is used up. */
public class RangeUnavailableException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public RangeUnavailableException(final String message) {
        super(message);
    }

    public RangeUnavailableException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
