package org.snowkey.lease.simulation;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The renewal scheduler of one simulated incarnation: {@code schedule} queues the task on the {@link SimWorld}
 * at virtual time. Only what {@code LeasedWorkerLease} uses is supported; the rest fails loudly.
 */
final class VirtualScheduler extends AbstractExecutorService implements ScheduledExecutorService {

    private final SimWorld world;

    private final SimInstance owner;

    private final int incarnation;

    private boolean shutdown;

    VirtualScheduler(final SimWorld world, final SimInstance owner, final int incarnation) {
        this.world = world;
        this.owner = owner;
        this.incarnation = incarnation;
    }

    @Override
    public ScheduledFuture<?> schedule(final Runnable command, final long delay, final TimeUnit unit) {
        if (shutdown) {
            throw new RejectedExecutionException("simulated scheduler shut down");
        }
        SimWorld.Task task = world.post(world.nowMicros() + Math.max(0, unit.toMicros(delay)), owner, incarnation, () -> {
            try {
                command.run();
                owner.observe();
            } catch (final RuntimeException ex) {
                // A real executor would swallow it into the future and never renew again: that is a defect to report.
                throw new SimulationFailure("a renewal task of " + owner.instanceId() + " threw " + ex, ex);
            }
        });
        return new VirtualFuture(task);
    }

    @Override
    public void execute(final Runnable command) {
        schedule(command, 0, TimeUnit.MILLISECONDS);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(final Callable<V> callable, final long delay, final TimeUnit unit) {
        throw new UnsupportedOperationException("not used by the lease");
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(final Runnable command, final long initialDelay, final long period, final TimeUnit unit) {
        throw new UnsupportedOperationException("not used by the lease");
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(final Runnable command, final long initialDelay, final long delay, final TimeUnit unit) {
        throw new UnsupportedOperationException("not used by the lease");
    }

    @Override
    public void shutdown() {
        shutdown = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown = true;
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        return shutdown;
    }

    @Override
    public boolean awaitTermination(final long timeout, final TimeUnit unit) {
        return shutdown;
    }

    /** The handle of one queued task. */
    private final class VirtualFuture implements ScheduledFuture<Object> {

        private final SimWorld.Task task;

        VirtualFuture(final SimWorld.Task task) {
            this.task = task;
        }

        @Override
        public long getDelay(final TimeUnit unit) {
            return unit.convert(task.atMicros() - world.nowMicros(), TimeUnit.MICROSECONDS);
        }

        @Override
        public int compareTo(final Delayed other) {
            return Long.compare(getDelay(TimeUnit.MICROSECONDS), other.getDelay(TimeUnit.MICROSECONDS));
        }

        @Override
        public boolean cancel(final boolean mayInterruptIfRunning) {
            return task.cancel();
        }

        @Override
        public boolean isCancelled() {
            return task.isCancelled();
        }

        @Override
        public boolean isDone() {
            return task.isCancelled() || task.atMicros() <= world.nowMicros();
        }

        @Override
        public Object get() throws ExecutionException {
            throw new UnsupportedOperationException("a simulated task cannot be awaited");
        }

        @Override
        public Object get(final long timeout, final TimeUnit unit) throws ExecutionException {
            throw new UnsupportedOperationException("a simulated task cannot be awaited");
        }
    }
}
