package org.snowkey.lease.store;

/**
 * A lease record that cannot be parsed. Never treated as free: the number stays out of use until an operator
 * repairs or deletes the record.
 */
public class CorruptLeaseRecordException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public CorruptLeaseRecordException(final String location, final String content, final Throwable cause) {
        super("SnowKey lease record at " + location + " cannot be parsed and is not reused; content: '" + content
                + "'. Repair or delete it by hand once no process uses this worker id" + (cause == null ? "" : " (" + cause.getMessage() + ")"), cause);
    }
}
