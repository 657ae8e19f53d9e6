package org.snowkey.keygen.mode;

import java.util.Properties;

/**
 * The cluster repository of a ShardingSphere mode configuration (Cluster mode), free of ShardingSphere types. It
 * describes ShardingSphere's mode, not a lease or a segment store: both generators' planners and stores read it to
 * default their connection to the mode's registry.
 *
 * @param type repository type, e.g. {@code ZooKeeper}
 * @param namespace the governance namespace
 * @param serverLists the server addresses as configured
 * @param props the repository props
 */
public record ClusterRegistry(String type, String namespace, String serverLists, Properties props) {
}
