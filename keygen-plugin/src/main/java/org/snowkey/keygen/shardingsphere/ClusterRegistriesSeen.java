package org.snowkey.keygen.shardingsphere;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.snowkey.keygen.mode.ClusterRegistry;

/**
 * The Cluster mode registries ShardingSphere has handed to any SnowKey algorithm of this JVM. ShardingSphere 5.1.2
 * tells only some of its key generator instances the mode (tested: in Cluster mode the instance that issues keys is
 * never told), so an instance that was not told takes the registry its siblings were given. Free of ShardingSphere
 * types: the Spring integration reads it ({@link PlansWithoutMode}) where ShardingSphere may be absent.
 */
final class ClusterRegistriesSeen {

    private static final Set<ClusterRegistry> SEEN = ConcurrentHashMap.newKeySet();

    /** Set once any ShardingSphere context of this JVM ran in Cluster mode, even one whose registry SnowKey could not read. */
    private static volatile boolean clusterModeSeen;

    private ClusterRegistriesSeen() {
    }

    static void add(final Optional<ClusterRegistry> cluster) {
        cluster.ifPresent(each -> {
            SEEN.add(each);
            clusterModeSeen = true;
        });
    }

    /** A ShardingSphere context runs in Cluster mode, whether or not SnowKey could read its registry. */
    static void clusterModeStarted() {
        clusterModeSeen = true;
    }

    /** True once a ShardingSphere context of this JVM ran in Cluster mode: a static worker id would repeat across its instances. */
    static boolean clusterModeSeen() {
        return clusterModeSeen;
    }

    /**
     * The one registry seen, empty when none was; with several, nobody can tell which one an instance belongs to.
     *
     * @param type the key generator type, for the message
     * @param prop the prop that names a registry explicitly, for the message
     * @throws IllegalStateException when this JVM has seen several registries
     */
    static Optional<ClusterRegistry> theOne(final String type, final String prop) {
        List<ClusterRegistry> seen = List.copyOf(SEEN);
        if (seen.size() > 1) {
            throw new IllegalStateException("SnowKey: ShardingSphere did not pass its mode to this " + type + " instance, and this JVM runs " + seen.size()
                    + " Cluster mode registries, so SnowKey cannot tell which one to use. Set " + prop + " (and its props) in this key generator's props");
        }
        return seen.isEmpty() ? Optional.empty() : Optional.of(seen.get(0));
    }

    /** Every registry seen so far. */
    static List<ClusterRegistry> all() {
        return List.copyOf(SEEN);
    }

    static void forget() {
        SEEN.clear();
        clusterModeSeen = false;
    }
}
