package org.snowkey.keygen.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.testing.MemoryLeasePool;
import org.snowkey.keygen.testing.SwitchableLease;

/**
 * What the reviews of runs and of the idle restart share: a layout of 8 values per millisecond (so that runs, milliseconds
 * and the cap's edge are a few ids apart), a start time, a time cache cap, what they assert of a holding's release, and
 * how they call on another thread and look into the id path.
 */
final class RunFixtures {

    static final IdLayout LAYOUT = IdLayout.of(18, 1, IdLayout.defaults().epochMillis());

    static final long T = LAYOUT.epochMillis() + 1_000_000L;

    static final long CAP = 1_000;

    private RunFixtures() {
    }

    static long wallClockOf(final long id) {
        return LAYOUT.decode(id).timestamp().toEpochMilli();
    }

    /** A lease on worker id 1, in force from {@link #T}, that a test can revoke or replace. */
    static SwitchableLease leaseOnWorkerId1() {
        return new SwitchableLease(new LeaseGrant(1, T, LeaseGrant.UNBOUNDED, "worker id 1"));
    }

    /** The pool holds, as worker id {@code workerId}'s high-water mark, the millisecond of its last id among {@code ids}. */
    static void assertReleasedAtItsLastId(final MemoryLeasePool pool, final int workerId, final List<Long> ids) {
        long last = Long.MIN_VALUE;
        for (long each : ids) {
            if (LAYOUT.decode(each).workerId() == workerId) {
                last = Math.max(last, wallClockOf(each));
            }
        }
        assertEquals(last, (long) pool.reservedUntil(workerId).orElseThrow(), "worker id " + workerId + " released at the millisecond of its last id");
    }

    /** The named single threads a review test calls on ({@link #on}); {@link #stopAll} after each test. */
    static final class Threads {

        private final List<ExecutorService> executors = new ArrayList<>();

        ExecutorService named(final String name) {
            ExecutorService executor = Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, name));
            executors.add(executor);
            return executor;
        }

        void stopAll() {
            executors.forEach(ExecutorService::shutdownNow);
        }
    }

    /** Runs {@code call} on {@code thread} and waits for it (bounded), rethrowing what it threw. */
    static <V> V on(final ExecutorService thread, final Callable<V> call) throws Exception {
        try {
            return thread.submit(call).get(20, TimeUnit.SECONDS);
        } catch (final ExecutionException ex) {
            if (ex.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw ex;
        }
    }

    /** A private field of the id path, opened for a review test to look into. */
    static Field field(final Class<?> type, final String name) throws NoSuchFieldException {
        Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }
}
