package org.snowkey.keygen.runtime;

import java.util.function.Supplier;

import org.snowkey.keygen.config.GeneratorSettings;
import org.snowkey.keygen.lease.WorkerLease;

/**
 * A validated configuration, not yet connected: which scope it belongs to and how to open its lease.
 *
 * @param settings the generator settings
 * @param scopeKey one generator per key per JVM
 * @param leaseOpener opens the lease of the scope (I/O happens here, never while planning)
 * @param unguardedStaticWorkerId true when no worker id and no registry were configured: worker id 0, safe only
 *                                for a single instance
 */
public record SnowflakePlan(GeneratorSettings settings, String scopeKey, Supplier<WorkerLease> leaseOpener, boolean unguardedStaticWorkerId) {
}
