package org.snowkey.keygen.shardingsphere;

import java.util.Optional;

import org.snowkey.keygen.mode.ClusterRegistry;

/**
 * A SnowKey key generate algorithm of the 5.5 line that binds its generator (and lease) when ShardingSphere hands
 * over its instance context. Every SnowKey 5.5 algorithm implements it, so that {@link InstanceContexts} serves them
 * all on each 5.5 patch, whichever way that patch hands the context over.
 */
public interface InstanceContextBound {

    /**
     * Binds the generator now, taking its lease: ShardingSphere is starting or rebuilding a rule.
     *
     * @param cluster the Cluster mode repository of ShardingSphere's mode configuration, when there is one
     * @param owner ShardingSphere's instance context: when it is destroyed, the lease is released
     */
    void bindInstanceContext(Optional<ClusterRegistry> cluster, Object owner);
}
