package org.snowkey.lease.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import org.snowkey.keygen.layout.IdLayout;

/** Small helpers of the lease tests. */
public final class Ids {

    private Ids() {
    }

    /** The default layout with another number of worker id bits. */
    public static IdLayout layout(final int workerIdBits) {
        return IdLayout.of(workerIdBits, 1, IdLayout.defaults().epochMillis());
    }

    /** Waits for a condition; fails with the description when it does not come true in time (liveness, not timing). */
    public static void await(final String what, final Duration timeout, final BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for: " + what);
            }
            try {
                Thread.sleep(20);
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for: " + what, ex);
            }
        }
    }
}
