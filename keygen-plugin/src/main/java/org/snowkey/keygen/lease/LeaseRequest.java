package org.snowkey.keygen.lease;

import java.util.Optional;

import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.mode.ClusterRegistry;

/**
 * What a lease backend needs to prepare a lease: its own settings as its {@link WorkerLeaseProvider#parse} returned
 * them, the lease props every backend shares, the id layout (which sets the pool size, and which every instance of a
 * pool must share) and, in ShardingSphere Cluster mode, the registry of the mode configuration.
 *
 * @param backend the backend's parsed settings
 * @param terms the shared lease props, as the plugin parsed them
 * @param layout the id layout; the pool has {@code 2^workerIdBits} numbers
 * @param clusterRegistry the mode's cluster repository, when ShardingSphere runs in Cluster mode
 */
public record LeaseRequest(LeaseBackendSettings backend, LeaseTerms terms, IdLayout layout, Optional<ClusterRegistry> clusterRegistry) {

    /** The backend settings as the type its provider parsed them into; anything else is a programming error. */
    public <T extends LeaseBackendSettings> T backend(final Class<T> type) {
        if (!type.isInstance(backend)) {
            throw new IllegalArgumentException("lease settings " + backend + " were not parsed by the provider that expects " + type.getName());
        }
        return type.cast(backend);
    }
}
