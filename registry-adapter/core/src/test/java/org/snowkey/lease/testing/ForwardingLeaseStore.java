package org.snowkey.lease.testing;

import java.util.Optional;

import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.lease.store.StoredLease;

/** A store that passes every call to a real one; test stores override the calls they break. */
public abstract class ForwardingLeaseStore implements LeaseStore {

    protected final LeaseStore delegate;

    protected ForwardingLeaseStore(final LeaseStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public String describe() {
        return delegate.describe();
    }

    @Override
    public String locationOf(final String pool, final int workerId) {
        return delegate.locationOf(pool, workerId);
    }

    @Override
    public Optional<StoredLease> read(final String pool, final int workerId) {
        return delegate.read(pool, workerId);
    }

    @Override
    public PoolListing list(final String pool) {
        return delegate.list(pool);
    }

    @Override
    public Optional<Long> create(final LeaseRecord record) {
        return delegate.create(record);
    }

    @Override
    public Optional<Long> compareAndSet(final LeaseRecord record, final long expectedStoreVersion) {
        return delegate.compareAndSet(record, expectedStoreVersion);
    }

    @Override
    public boolean delete(final String pool, final int workerId, final long expectedStoreVersion) {
        return delegate.delete(pool, workerId, expectedStoreVersion);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
