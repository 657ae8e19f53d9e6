package org.snowkey.keygen.shardingsphere;

import java.util.Optional;
import java.util.Properties;

import org.apache.shardingsphere.infra.config.mode.ModeConfiguration;
import org.apache.shardingsphere.mode.repository.cluster.ClusterPersistRepositoryConfiguration;
import org.snowkey.keygen.mode.ClusterRegistry;

/**
 * Reads the cluster repository out of ShardingSphere's mode configuration into a type of our own.
 *
 * <p>Shared by every line: {@code ModeConfiguration} and {@code ClusterPersistRepositoryConfiguration} keep their
 * names and the getters used here from 5.1 to 5.5 (checked with javap), so this class links on each of them. It
 * must not call what a line lacks, such as 5.5's {@code ModeConfiguration.isCluster()}.
 */
public final class ModeConfigurations {

    private ModeConfigurations() {
    }

    public static Optional<ClusterRegistry> clusterRegistry(final ModeConfiguration mode) {
        if (mode == null || !"Cluster".equalsIgnoreCase(mode.getType()) || mode.getRepository() == null) {
            return Optional.empty();
        }
        // Only touched in Cluster mode, where ShardingSphere's cluster repository API is on the classpath.
        if (!(mode.getRepository() instanceof ClusterPersistRepositoryConfiguration repository)) {
            return Optional.empty();
        }
        Properties props = repository.getProps() == null ? new Properties() : repository.getProps();
        return Optional.of(new ClusterRegistry(repository.getType(), repository.getNamespace(), repository.getServerLists(), props));
    }

    /** Records a started context's mode in {@link ClusterRegistriesSeen}, whether or not it has SnowKey key generators. */
    static void recordStarted(final ModeConfiguration mode) {
        if (mode != null && "Cluster".equalsIgnoreCase(mode.getType())) {
            ClusterRegistriesSeen.clusterModeStarted();
        }
        ClusterRegistriesSeen.add(clusterRegistry(mode));
    }
}
