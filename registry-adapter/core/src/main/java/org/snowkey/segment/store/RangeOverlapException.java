package org.snowkey.segment.store;

/** Two ranges of one key share numbers: the allocator contract is broken and ids may repeat. */
public class RangeOverlapException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public RangeOverlapException(final String message) {
        super(message);
    }
}
