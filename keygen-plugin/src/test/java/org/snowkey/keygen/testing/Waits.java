package org.snowkey.keygen.testing;

import java.util.concurrent.CountDownLatch;

/** Waits that hold a thread at a chosen point of a race: latches and thread states, never sleeps. */
public final class Waits {

    private Waits() {
    }

    /** Waits for the latch; an interrupt meanwhile is kept for the caller, not lost, and does not end the wait. */
    public static void awaitUninterruptibly(final CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (final InterruptedException ex) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Returns once the thread is parked (waiting without a timeout) or has ended. */
    public static void awaitParked(final Thread thread) {
        while (thread.isAlive() && thread.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
    }
}
