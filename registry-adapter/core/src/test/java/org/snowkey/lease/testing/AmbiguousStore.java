package org.snowkey.lease.testing;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.lease.store.LeaseStoreUnavailableException;
import org.snowkey.lease.store.StoredLease;

/**
 * A real store whose next create or compare-and-set, when armed, is applied and then answered with an error: the
 * answer lost on the wire (a ZooKeeper request timeout, a JDBC connection cut after the commit).
 */
public final class AmbiguousStore implements LeaseStore {

    private final LeaseStore delegate;

    private final AtomicBoolean nextCreate = new AtomicBoolean();

    private final AtomicBoolean nextCompareAndSet = new AtomicBoolean();

    public AmbiguousStore(final LeaseStore delegate) {
        this.delegate = delegate;
    }

    public void loseTheAnswerOfTheNextCreate() {
        nextCreate.set(true);
    }

    public void loseTheAnswerOfTheNextCompareAndSet() {
        nextCompareAndSet.set(true);
    }

    /** True once the armed write happened. */
    public boolean fired() {
        return !nextCreate.get() && !nextCompareAndSet.get();
    }

    @Override
    public Optional<Long> create(final LeaseRecord record) {
        Optional<Long> result = delegate.create(record);
        if (nextCreate.compareAndSet(true, false)) {
            throw new LeaseStoreUnavailableException("test: the create was applied (" + result + ") and its answer lost", null);
        }
        return result;
    }

    @Override
    public Optional<Long> compareAndSet(final LeaseRecord record, final long expectedStoreVersion) {
        Optional<Long> result = delegate.compareAndSet(record, expectedStoreVersion);
        if (nextCompareAndSet.compareAndSet(true, false)) {
            throw new LeaseStoreUnavailableException("test: the compare-and-set was applied (" + result + ") and its answer lost", null);
        }
        return result;
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
    public boolean delete(final String pool, final int workerId, final long expectedStoreVersion) {
        return delegate.delete(pool, workerId, expectedStoreVersion);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
