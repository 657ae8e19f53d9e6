package org.snowkey.lease.testing;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.lease.store.LeaseStoreUnavailableException;

/**
 * A real store whose next create or compare-and-set, when armed, is applied and then answered with an error: the
 * answer lost on the wire (a ZooKeeper request timeout, a JDBC connection cut after the commit).
 */
public final class AmbiguousStore extends ForwardingLeaseStore {

    private final AtomicBoolean nextCreate = new AtomicBoolean();

    private final AtomicBoolean nextCompareAndSet = new AtomicBoolean();

    public AmbiguousStore(final LeaseStore delegate) {
        super(delegate);
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
}
