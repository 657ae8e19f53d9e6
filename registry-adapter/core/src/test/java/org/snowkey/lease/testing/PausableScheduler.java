package org.snowkey.lease.testing;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** A one-thread scheduler a test can stop and restart: renewals queue up while it is paused, as in a stopped process. */
public final class PausableScheduler extends ScheduledThreadPoolExecutor {

    private volatile CountDownLatch gate;

    public PausableScheduler() {
        super(1, runnable -> {
            Thread thread = new Thread(runnable, "test-pausable-renewal");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Blocks the only thread until {@link #resume()}; returns once it is blocked. */
    public void pause() throws InterruptedException {
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        gate = release;
        execute(() -> {
            blocked.countDown();
            try {
                release.await();
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        });
        if (!blocked.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the renewal thread did not pause");
        }
    }

    public void resume() {
        CountDownLatch release = gate;
        if (release != null) {
            release.countDown();
        }
    }
}
