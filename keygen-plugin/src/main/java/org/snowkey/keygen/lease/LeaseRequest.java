package org.snowkey.keygen.lease;

import java.util.Optional;
import java.util.Properties;

import org.snowkey.keygen.layout.IdLayout;

/**
 * What a lease backend needs to know: the algorithm's props, the id layout (which sets the pool size, and which
 * every instance of a pool must share) and, in ShardingSphere Cluster mode, the registry of the mode configuration.
 *
 * @param props the key generator props as configured (all of them; the backend reads its own)
 * @param layout the id layout; the pool has {@code 2^workerIdBits} numbers
 * @param clusterRegistry the mode's cluster repository, when ShardingSphere runs in Cluster mode
 * @param modeResolved false while ShardingSphere has not yet said which mode it runs in (algorithm {@code init()}):
 *                     a backend must then accept a missing prop that Cluster mode may still supply
 */
public record LeaseRequest(Properties props, IdLayout layout, Optional<ClusterRegistry> clusterRegistry, boolean modeResolved) {

    /** A request whose mode is known: {@code clusterRegistry} is empty outside Cluster mode. */
    public LeaseRequest(final Properties props, final IdLayout layout, final Optional<ClusterRegistry> clusterRegistry) {
        this(props, layout, clusterRegistry, true);
    }

    /** The pool has {@code 2^workerIdBits} numbers. */
    public int workerIdBits() {
        return layout.workerIdBits();
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
