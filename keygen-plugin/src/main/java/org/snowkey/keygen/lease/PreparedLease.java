package org.snowkey.keygen.lease;

/** A validated lease configuration, not yet connected. */
public interface PreparedLease {

    /**
     * Identifies the lease scope: one lease per distinct key per JVM, e.g. registry, address, namespace and
     * pool. Two algorithm instances with the same key share one worker id and its sequence streams.
     */
    String scopeKey();

    /** Opens the lease. It may connect; it acquires no later than the first {@link WorkerLease#currentGrant()}. */
    WorkerLease open();
}
