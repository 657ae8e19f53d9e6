package org.snowkey.keygen.segment.runtime;

import java.util.Optional;
import java.util.Set;

import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.segment.SegmentSettings;

/**
 * A range allocator backend of {@code SNOWKEY_SEGMENT}, found through {@link java.util.ServiceLoader} by its
 * {@link #name()}, the value of the {@code segment-allocator} prop. The lease modules ship {@code jdbc} and
 * {@code zookeeper}.
 *
 * <p>The same two steps as a lease backend, neither with I/O (ShardingSphere builds throw-away algorithm instances):
 * {@link #parse} reads the backend's props once at start-up, {@link #prepare} adds what ShardingSphere's mode supplies.
 */
public interface SegmentAllocatorProvider {

    /** The {@code segment-allocator} value that selects this backend, in lower case. */
    String name();

    /** Props this backend reads; any other prop that is not a segment prop is rejected. */
    Set<String> propertyNames();

    /**
     * Parses and validates this backend's props. Values Cluster mode may still supply may be missing here.
     *
     * @param sequence the sizing and fetching already parsed: a backend bounds each connection attempt and request by
     *                 {@link SegmentSettings#fetchTimeoutMillis()}, so that an INSERT waiting for a range while the
     *                 store is unreachable fails with the store's own error, not before it is known
     * @throws org.snowkey.keygen.config.InvalidSettingException naming the prop and the value
     */
    SegmentBackendSettings parse(PropertyReader reader, SegmentSettings sequence);

    /**
     * Completes the parsed settings from the mode, without I/O.
     *
     * @param cluster ShardingSphere's Cluster mode repository, when there is one
     * @throws org.snowkey.keygen.config.InvalidSettingException when a required value is set neither in the props nor by the mode
     */
    PreparedAllocator prepare(SegmentBackendSettings settings, Optional<ClusterRegistry> cluster);
}
