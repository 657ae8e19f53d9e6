package org.snowkey.lease.store.jdbc;

import java.util.Set;

import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.lease.LeaseRequest;
import org.snowkey.keygen.lease.PreparedLease;
import org.snowkey.keygen.lease.WorkerLease;
import org.snowkey.keygen.lease.WorkerLeaseProvider;
import org.snowkey.lease.LeaseRuntimeOptions;
import org.snowkey.lease.LeaseSettings;
import org.snowkey.lease.LeasedWorkerLease;

/**
 * {@code lease-registry: jdbc}: worker ids leased through a table of a database the application already runs,
 * for Standalone-mode deployments without ZooKeeper. Same protocol as every registry ({@link LeasedWorkerLease});
 * {@link #prepare} only validates, {@link PreparedLease#open()} builds the (not yet connected) pool, and the first
 * grant request connects and acquires.
 */
public final class JdbcLeaseProvider implements WorkerLeaseProvider {

    public static final String REGISTRY = "jdbc";

    @Override
    public String registry() {
        return REGISTRY;
    }

    @Override
    public Set<String> propertyNames() {
        return JdbcLeaseProps.NAMES;
    }

    @Override
    public PreparedLease prepare(final LeaseRequest request) {
        PropertyReader reader = new PropertyReader(request.props());
        LeaseSettings lease = LeaseSettings.parse(reader);
        JdbcStoreSettings store = JdbcLeaseProps.parse(reader, lease);
        return new Prepared(lease, store, request.workerIdBits());
    }

    /** A validated JDBC lease, not yet connected. */
    private record Prepared(LeaseSettings lease, JdbcStoreSettings store, int workerIdBits) implements PreparedLease {

        /** The URL without credentials: the same table reached with other credentials is the same scope. */
        @Override
        public String scopeKey() {
            return REGISTRY + "|" + store.safeUrl() + "|" + store.table().value() + "|" + lease.pool();
        }

        @Override
        public WorkerLease open() {
            return new LeasedWorkerLease(new JdbcLeaseStore(store), lease, workerIdBits, LeaseRuntimeOptions.defaults());
        }

        @Override
        public String toString() {
            return "JdbcLeaseProvider.Prepared[" + scopeKey() + "]";
        }
    }
}
