package org.snowkey.lease.testing;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A renewal scheduler that runs nothing by itself: the test runs the queued renewals on its own thread, one at a
 * time, so that what a renewal did is known before the next step (no race with a timer).
 */
public final class ManualScheduler extends ScheduledThreadPoolExecutor {

    private final Deque<FutureTask<?>> queued = new ArrayDeque<>();

    public ManualScheduler() {
        super(1, runnable -> {
            Thread thread = new Thread(runnable, "test-manual-scheduler");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public synchronized ScheduledFuture<?> schedule(final Runnable command, final long delay, final TimeUnit unit) {
        FutureTask<Object> task = new FutureTask<>(command, null);
        queued.add(task);
        // A future that never fires by itself; the test runs the task.
        return super.schedule(() -> { }, 1, TimeUnit.DAYS);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(final Callable<V> callable, final long delay, final TimeUnit unit) {
        throw new UnsupportedOperationException("not used by the lease");
    }

    /** Runs the oldest queued task; fails when there is none. */
    public void runNext() {
        FutureTask<?> task;
        synchronized (this) {
            task = queued.poll();
        }
        if (task == null) {
            throw new AssertionError("no renewal is scheduled");
        }
        task.run();
    }

    /**
     * Runs the oldest queued task if there is one: a lease whose renewal revoked it and whose reacquisition then failed
     * has nothing queued until the next id request acquires again.
     *
     * @return whether a task ran
     */
    public boolean runNextIfQueued() {
        synchronized (this) {
            if (queued.isEmpty()) {
                return false;
            }
        }
        runNext();
        return true;
    }

    @Override
    public List<Runnable> shutdownNow() {
        synchronized (this) {
            queued.clear();
        }
        return super.shutdownNow();
    }
}
