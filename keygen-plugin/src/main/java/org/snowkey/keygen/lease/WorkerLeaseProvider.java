package org.snowkey.keygen.lease;

import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.mode.ClusterRegistry;

/**
 * A lease backend, found through {@link java.util.ServiceLoader} by its {@link #registry()} name, the value of
 * the {@code lease-registry} prop. The registry adapter module ships {@code zookeeper} and {@code jdbc}.
 *
 * <p>Two steps, neither with I/O (ShardingSphere builds throw-away algorithm instances, so nothing may connect or
 * acquire before {@link PreparedLease#open()}): {@link #parse} reads the backend's props once, at start-up, before
 * ShardingSphere has said which mode it runs in; {@link #prepare} adds what the mode supplies (Cluster mode's
 * ZooKeeper servers) without reading the props again.
 */
public interface WorkerLeaseProvider {

    /** The {@code lease-registry} value that selects this backend. */
    String registry();

    /** Props this backend reads besides the shared lease props; any other unknown prop is rejected. */
    Set<String> propertyNames();

    /**
     * Parses and validates this backend's props. Values that ShardingSphere's Cluster mode may still supply may be
     * missing here; {@link #prepare} rejects them if they are still missing then.
     *
     * @param props the key generator props (the backend reads its own {@link #propertyNames()})
     * @param terms the shared lease props, already parsed
     * @throws org.snowkey.keygen.config.InvalidSettingException naming the prop and the value
     */
    LeaseBackendSettings parse(Properties props, LeaseTerms terms);

    /**
     * Prepares a lease from the settings this provider parsed and the mode, without any I/O.
     *
     * @throws org.snowkey.keygen.config.InvalidSettingException when a required value is set neither in the props nor by the mode
     */
    PreparedLease prepare(LeaseRequest request);

    /**
     * {@link #parse} and {@link #prepare} in one step, for tools and tests that have the props and the mode at once;
     * a key generator goes through {@code SnowflakePlanner}, which also rejects unknown props and props that cannot apply.
     */
    default PreparedLease prepare(final Properties props, final IdLayout layout, final Optional<ClusterRegistry> clusterRegistry) {
        LeaseTerms terms = LeaseTerms.parse(new PropertyReader(props));
        return prepare(new LeaseRequest(parse(props, terms), terms, layout, clusterRegistry));
    }
}
