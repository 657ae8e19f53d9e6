package org.snowkey.keygen.lease;

import java.util.Optional;
import java.util.Properties;

import org.snowkey.keygen.layout.IdLayout;

/**
 * What a lease backend needs to prepare a lease: its own settings as its {@link WorkerLeaseProvider#parse} returned
 * them, the id layout (which sets the pool size, and which every instance of a pool must share) and, in
 * ShardingSphere Cluster mode, the registry of the mode configuration.
 *
 * @param backend the backend's parsed settings
 * @param layout the id layout; the pool has {@code 2^workerIdBits} numbers
 * @param clusterRegistry the mode's cluster repository, when ShardingSphere runs in Cluster mode
 */
public record LeaseRequest(LeaseBackendSettings backend, IdLayout layout, Optional<ClusterRegistry> clusterRegistry) {

    /** The pool has {@code 2^workerIdBits} numbers. */
    public int workerIdBits() {
        return layout.workerIdBits();
    }

    /** The backend settings as the type its provider parsed them into; anything else is a programming error. */
    public <T extends LeaseBackendSettings> T backend(final Class<T> type) {
        if (!type.isInstance(backend)) {
            throw new IllegalArgumentException("lease settings " + backend + " were not parsed by the provider that expects " + type.getName());
        }
        return type.cast(backend);
    }

    /**
     * The cluster repository of a ShardingSphere mode configuration, free of ShardingSphere types.
     *
     * @param type repository type, e.g. {@code ZooKeeper}
     * @param namespace the governance namespace
     * @param serverLists the server addresses as configured
     * @param props the repository props
     */
    public record ClusterRegistry(String type, String namespace, String serverLists, Properties props) {
    }
}
