package org.snowkey.lease.simulation;

import java.util.Map;
import java.util.Optional;

import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.lease.store.LeaseStoreUnavailableException;
import org.snowkey.lease.store.StoredLease;

/**
 * One incarnation's connection to the {@link SimStore}, the {@code LeaseStore} the production lease runs on. While
 * the schedule injects faults, each call may be refused (not applied), lost (not applied, after a timeout),
 * applied and then answered with an error, slow to arrive or slow to answer.
 */
final class SimStoreClient implements LeaseStore {

    /** What happens to one store call. */
    enum Fault {
        NONE, REFUSED, LOST, APPLIED_THEN_FAILED, SLOW_REQUEST, SLOW_ANSWER
    }

    private final SimWorld world;

    private final SimStore store;

    private final SimStore.Writer writer;

    private final SimStats stats;

    private final String pool;

    private double faultRate;

    private long maxDelayMicros;

    private boolean closed;

    /** Calls that threw since the last reset: a graceful release is judged by whether its calls all succeeded. */
    private int failedCalls;

    SimStoreClient(final SimWorld world, final SimStore store, final SimStore.Writer writer, final SimStats stats, final String pool) {
        this.world = world;
        this.store = store;
        this.writer = writer;
        this.stats = stats;
        this.pool = pool;
    }

    void faults(final double rate, final long maxDelayMillis) {
        this.faultRate = rate;
        this.maxDelayMicros = maxDelayMillis * 1000;
    }

    int failedCalls() {
        return failedCalls;
    }

    @Override
    public String describe() {
        return "simulated store";
    }

    @Override
    public String locationOf(final String pool, final int workerId) {
        return "sim/" + pool + "/" + workerId;
    }

    @Override
    public Optional<StoredLease> read(final String pool, final int workerId) {
        return call(false, () -> store.read(workerId));
    }

    @Override
    public PoolListing list(final String pool) {
        return call(false, () -> new PoolListing(store.list(), Map.of()));
    }

    @Override
    public Optional<Long> create(final LeaseRecord record) {
        checkPool(record);
        return call(true, () -> store.create(record, writer));
    }

    @Override
    public Optional<Long> compareAndSet(final LeaseRecord record, final long expectedStoreVersion) {
        checkPool(record);
        return call(true, () -> store.compareAndSet(record, expectedStoreVersion, writer));
    }

    @Override
    public boolean delete(final String pool, final int workerId, final long expectedStoreVersion) {
        return call(true, () -> store.delete(workerId, expectedStoreVersion));
    }

    @Override
    public void close() {
        closed = true;
    }

    private void checkPool(final LeaseRecord record) {
        if (!pool.equals(record.pool())) {
            throw new SimulationFailure("a lease wrote pool '" + record.pool() + "' through a client of pool '" + pool + "'");
        }
    }

    private <T> T call(final boolean write, final java.util.function.Supplier<T> operation) {
        if (closed) {
            failedCalls++;
            throw new LeaseStoreUnavailableException("simulated store client closed", null);
        }
        stats.storeCalls++;
        world.whileInStoreCall(writer.instance());
        Fault fault = nextFault(write);
        if (fault != Fault.NONE) {
            world.note(writer.instance().name() + " store " + (write ? "write" : "read") + ": " + fault);
        }
        switch (fault) {
            case REFUSED:
                failedCalls++;
                throw new LeaseStoreUnavailableException("simulated: connection refused", null);
            case LOST:
                world.pass(delay());
                failedCalls++;
                throw new LeaseStoreUnavailableException("simulated: request lost, timed out", null);
            case APPLIED_THEN_FAILED:
                operation.get();
                failedCalls++;
                throw new LeaseStoreUnavailableException("simulated: applied, answer lost", null);
            case SLOW_REQUEST:
                world.pass(delay());
                return operation.get();
            case SLOW_ANSWER:
                T result = operation.get();
                world.pass(delay());
                return result;
            default:
                return operation.get();
        }
    }

    private Fault nextFault(final boolean write) {
        if (faultRate <= 0 || world.random().nextDouble() >= faultRate) {
            return Fault.NONE;
        }
        Fault[] kinds = Fault.values();
        Fault fault = kinds[1 + world.random().nextInt(kinds.length - 1)];
        if (fault == Fault.APPLIED_THEN_FAILED && !write) {
            fault = Fault.LOST;
        }
        stats.faults.merge(fault.name(), 1L, Long::sum);
        return fault;
    }

    private long delay() {
        return maxDelayMicros <= 0 ? 0 : 1 + (long) (world.random().nextDouble() * maxDelayMicros);
    }
}
