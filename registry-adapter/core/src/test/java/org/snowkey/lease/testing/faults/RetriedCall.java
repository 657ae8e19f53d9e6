package org.snowkey.lease.testing.faults;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A store call retried the way SnowKey's callers retry one (an insert asking for a grant again, the segment fetcher,
 * an operator re-running a command): while it fails in a way that passes with time, up to a deadline. An injected
 * fault fires once, but its aftermath may last: a timed-out ZooKeeper request closes the connection, and the calls
 * after it fail until the client has reconnected.
 */
public final class RetriedCall {

    /** Far above a reconnect (about a second), far below anything a test run would notice as hanging. */
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(20);

    private RetriedCall() {
    }

    /**
     * @param passing which failures pass with time; any other is thrown at once
     * @return the call's result
     */
    public static <T> T until(final Supplier<T> call, final Predicate<RuntimeException> passing) {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (true) {
            try {
                return call.get();
            } catch (final RuntimeException ex) {
                if (!passing.test(ex) || System.nanoTime() - deadline > 0) {
                    throw ex;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
        }
    }
}
