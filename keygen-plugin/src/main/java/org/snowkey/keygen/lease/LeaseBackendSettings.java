package org.snowkey.keygen.lease;

/**
 * A lease backend's own props, parsed and validated once by its {@link WorkerLeaseProvider#parse}, and handed back
 * to the same provider's {@link WorkerLeaseProvider#prepare}. Opaque to the plugin: each backend implements it with
 * its own immutable type.
 */
public interface LeaseBackendSettings {
}
