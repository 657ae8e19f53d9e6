package org.snowkey.lease.testing;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.lease.store.LeaseStoreUnavailableException;

/**
 * A real store that lets a test act while a write is in flight: the next create or compare-and-set first runs a
 * test's action (another process or thread doing its part meanwhile), then is applied, or lost on the way (never
 * applied, answered with a timeout).
 */
public final class InterceptingStore extends ForwardingLeaseStore {

    /** What happens to the intercepted write after the action ran. */
    public enum Outcome {
        APPLIED, LOST
    }

    private final AtomicReference<Interception> nextCreate = new AtomicReference<>();

    private final AtomicReference<Interception> nextCompareAndSet = new AtomicReference<>();

    public InterceptingStore(final LeaseStore delegate) {
        super(delegate);
    }

    public void onNextCreate(final Runnable meanwhile, final Outcome outcome) {
        nextCreate.set(new Interception(meanwhile, outcome));
    }

    public void onNextCompareAndSet(final Runnable meanwhile, final Outcome outcome) {
        nextCompareAndSet.set(new Interception(meanwhile, outcome));
    }

    /** True once every armed interception happened. */
    public boolean fired() {
        return nextCreate.get() == null && nextCompareAndSet.get() == null;
    }

    @Override
    public Optional<Long> create(final LeaseRecord record) {
        Interception interception = nextCreate.getAndSet(null);
        if (interception != null) {
            interception.meanwhile().run();
            if (interception.outcome() == Outcome.LOST) {
                throw new LeaseStoreUnavailableException("test: the create was lost on its way, not applied", null);
            }
        }
        return delegate.create(record);
    }

    @Override
    public Optional<Long> compareAndSet(final LeaseRecord record, final long expectedStoreVersion) {
        Interception interception = nextCompareAndSet.getAndSet(null);
        if (interception != null) {
            interception.meanwhile().run();
            if (interception.outcome() == Outcome.LOST) {
                throw new LeaseStoreUnavailableException("test: the compare-and-set was lost on its way, not applied", null);
            }
        }
        return delegate.compareAndSet(record, expectedStoreVersion);
    }

    private record Interception(Runnable meanwhile, Outcome outcome) {
    }
}
