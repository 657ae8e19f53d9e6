package org.snowkey.keygen.lease;

import java.util.Set;

/**
 * A lease backend, found through {@link java.util.ServiceLoader} by its {@link #registry()} name, the value of
 * the {@code lease-registry} prop. The registry adapter module ships {@code zookeeper} and {@code jdbc}.
 */
public interface WorkerLeaseProvider {

    /** The {@code lease-registry} value that selects this backend. */
    String registry();

    /** Props this backend reads besides the shared lease props; any other unknown prop is rejected. */
    Set<String> propertyNames();

    /**
     * Validates the request's props and prepares a lease without any I/O: ShardingSphere builds throw-away
     * algorithm instances, so nothing may connect or acquire here.
     *
     * @throws org.snowkey.keygen.config.InvalidSettingException naming the prop and the value
     */
    PreparedLease prepare(LeaseRequest request);
}
