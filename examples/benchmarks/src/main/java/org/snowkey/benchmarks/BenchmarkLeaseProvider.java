package org.snowkey.benchmarks;

import java.util.Properties;
import java.util.Set;

import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.lease.LeaseBackendSettings;
import org.snowkey.keygen.lease.LeaseRequest;
import org.snowkey.keygen.lease.PreparedLease;
import org.snowkey.keygen.lease.WorkerLease;
import org.snowkey.keygen.lease.WorkerLeaseProvider;

/**
 * {@code lease-registry: benchmark-memory}, for the benchmarks only (registered by this module's services file, never
 * shipped): every lease opened is the first lease of a fresh {@link BenchmarkLeasePool} of the layout's size, so that
 * the holdings contender through the ShardingSphere SPI grows as a generator on a real registry would, without the
 * registry's I/O in the measurement (growth acquires in the background anyway, never on an id's path).
 */
public final class BenchmarkLeaseProvider implements WorkerLeaseProvider {

    public static final String NAME = "benchmark-memory";

    @Override
    public String registry() {
        return NAME;
    }

    @Override
    public Set<String> propertyNames() {
        return Set.of();
    }

    @Override
    public LeaseBackendSettings parse(final Properties props, final LeaseTerms terms) {
        return Memory.INSTANCE;
    }

    @Override
    public PreparedLease prepare(final LeaseRequest request) {
        int size = request.layout().workerIdCount();
        String scope = NAME + "|pool=" + request.terms().pool();
        return new PreparedLease() {

            @Override
            public String scopeKey() {
                return scope;
            }

            @Override
            public WorkerLease open() {
                return new BenchmarkLeasePool(size).open();
            }
        };
    }

    private enum Memory implements LeaseBackendSettings {
        INSTANCE
    }
}
