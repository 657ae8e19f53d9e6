package org.snowkey.keygen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.snowkey.keygen.testing.Waits.awaitParked;
import static org.snowkey.keygen.testing.Waits.awaitUninterruptibly;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseUnavailableException;
import org.snowkey.keygen.lease.StaticHighWaterMarks;
import org.snowkey.keygen.lease.StaticWorkerLease;
import org.snowkey.keygen.lease.WorkerLease;

/**
 * Failures around a scope's lease, and the ways one scope key can be reached (docs/design.md, "Scopes"): whatever
 * fails while a generation opens or closes, the key must neither be stuck (every later join would wait for ever) nor
 * end up with two generations, that is two counters on one worker id.
 */
class ScopeFailuresTest {

    private static final int WORKER_ID = 9;

    private final StaticHighWaterMarks marks = new StaticHighWaterMarks();

    private final SnowflakeRuntime runtime = new SnowflakeRuntime(WallClock.system(), hook -> { }, Scopes.Waiting.PARK);

    private final SnowflakePlanner planner = new SnowflakePlanner(Map.of(), marks);

    @AfterEach
    void closeAll() {
        runtime.closeAll();
    }

    private SnowflakePlan staticPlan(final Supplier<WorkerLease> opener) {
        SnowflakePlan planned = planner.plan(props("worker-id", Integer.toString(WORKER_ID)), Optional.empty());
        return new SnowflakePlan(planned.settings(), planned.scopeKey(), opener, false);
    }

    private static Properties props(final Object... keysAndValues) {
        Properties props = new Properties();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            props.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return props;
    }

    /** An Error out of a lease's release (a class that no longer loads at shutdown, a stack overflow). */
    private static final class ReleaseError extends Error {

        ReleaseError() {
            super("the release failed");
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aReleaseThatThrowsAnErrorStillEndsItsGeneration() {
        AtomicInteger opened = new AtomicInteger();
        SnowflakePlan plan = staticPlan(() -> {
            StaticWorkerLease lease = new StaticWorkerLease(WORKER_ID, marks);
            return opened.getAndIncrement() > 0 ? lease : new DelegatingLease(lease) {
                @Override
                public void close() {
                    super.close();
                    throw new ReleaseError();
                }
            };
        });
        Object owner = new Object();
        IdGenerator first = runtime.generator(plan, owner);
        long lastOfFirst = first.nextId();

        assertThrows(ReleaseError.class, () -> runtime.release(owner), "the Error reaches the caller");
        // Before the fix the generation stayed CLOSING: this join parked for ever (the timeout ends it).
        IdGenerator next = runtime.generator(plan, new Object());
        assertNotSame(first, next);
        assertEquals(2, opened.get());
        assertTrue(next.nextId() > lastOfFirst, "the next generation starts above the high-water mark its predecessor recorded");
        runtime.close(plan.scopeKey());
        assertTrue(runtime.generators().isEmpty());
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aJoinerThatWaitedForAnOpenThatFailedOpensTheNextGeneration() throws Exception {
        CountDownLatch opening = new CountDownLatch(1);
        CountDownLatch letFail = new CountDownLatch(1);
        AtomicInteger opened = new AtomicInteger();
        SnowflakePlan plan = staticPlan(() -> {
            if (opened.getAndIncrement() == 0) {
                opening.countDown();
                awaitUninterruptibly(letFail);
                throw new LeaseUnavailableException("registry unreachable (test)");
            }
            return new StaticWorkerLease(WORKER_ID, marks);
        });
        AtomicReference<Throwable> openerFailure = new AtomicReference<>();
        Thread opener = new Thread(() -> {
            try {
                runtime.generator(plan, new Object());
            } catch (final RuntimeException ex) {
                openerFailure.set(ex);
            }
        }, "opener-fails");
        opener.start();
        opening.await();
        AtomicReference<IdGenerator> joined = new AtomicReference<>();
        Object waitingOwner = new Object();
        Thread joiner = new Thread(() -> joined.set(runtime.generator(plan, waitingOwner)), "joiner-waits");
        joiner.start();
        awaitParked(joiner);
        letFail.countDown();
        opener.join();
        joiner.join();

        assertInstanceOf(LeaseUnavailableException.class, openerFailure.get(), "the opener sees its own failure");
        assertNotNull(joined.get(), "the waiting joiner started over and opened the next generation");
        assertEquals(2, opened.get());
        assertEquals(List.of(joined.get()), List.copyOf(runtime.generators()), "one generation of the key, the one that opened");
        joined.get().nextId();
        runtime.release(waitingOwner);
        assertTrue(runtime.generators().isEmpty(), "the joiner owned the generation it opened");
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void anInterruptedJoinerKeepsItsInterruptAndOwnsNothing() throws Exception {
        CountDownLatch opening = new CountDownLatch(1);
        CountDownLatch letOpen = new CountDownLatch(1);
        SnowflakePlan plan = staticPlan(() -> {
            opening.countDown();
            awaitUninterruptibly(letOpen);
            return new StaticWorkerLease(WORKER_ID, marks);
        });
        Object openerOwner = new Object();
        AtomicReference<IdGenerator> opened = new AtomicReference<>();
        Thread opener = new Thread(() -> opened.set(runtime.generator(plan, openerOwner)), "opener");
        opener.start();
        opening.await();
        AtomicReference<Throwable> joinFailure = new AtomicReference<>();
        AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
        Object interruptedOwner = new Object();
        Thread joiner = new Thread(() -> {
            try {
                runtime.generator(plan, interruptedOwner);
            } catch (final RuntimeException ex) {
                joinFailure.set(ex);
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            }
        }, "joiner-interrupted");
        joiner.start();
        awaitParked(joiner);
        joiner.interrupt();
        joiner.join();
        letOpen.countDown();
        opener.join();

        assertInstanceOf(IllegalStateException.class, joinFailure.get());
        assertTrue(stillInterrupted.get(), "the interrupt is kept for the caller");
        opened.get().nextId();
        runtime.release(openerOwner);
        assertTrue(runtime.generators().isEmpty(), "the interrupted joiner never became an owner that keeps the scope open");
    }

    /**
     * A static worker id is one scope however its props spell it, the default worker id 0 included: two generations
     * of one number open at once would be two counters on one worker id.
     */
    @Test
    void everySpellingOfAStaticWorkerIdIsOneScope() {
        IdGenerator seven = runtime.generator(planner.plan(props("worker-id", "7"), Optional.empty()), new Object());
        for (Properties each : List.of(props("worker-id", " 7 "), props("worker-id", "07"), props("worker-id", "+7"), props("worker-id", 7))) {
            SnowflakePlan plan = planner.plan(each, Optional.empty());
            assertSame(seven, runtime.generator(plan, new Object()), each::toString);
        }
        IdGenerator unset = runtime.generator(planner.plan(new Properties(), Optional.empty()), new Object());
        assertSame(unset, runtime.generator(planner.plan(props("worker-id", "0"), Optional.empty()), new Object()),
                "the default worker id 0 and an explicit 0 share the scope");
        assertEquals(2, runtime.generators().size());
    }

    /**
     * A close that finds the generation still opening waits for the open, then closes what opened: on return, the
     * generation it saw is closed. The opener, whose join then finds the scope closing, either returns the generator it
     * opened (now ended) or, had the close come between its open and its join, waits for the close and opens the
     * next generation; both are correct, and in neither is a generator of the closed generation left running.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aCloseDuringAnOpenWaitsForItAndClosesWhatOpened() throws Exception {
        CountDownLatch opening = new CountDownLatch(1);
        CountDownLatch letOpen = new CountDownLatch(1);
        List<ClosedFlagLease> leases = new CopyOnWriteArrayList<>();
        SnowflakePlan plan = staticPlan(() -> {
            if (leases.isEmpty()) {
                opening.countDown();
                awaitUninterruptibly(letOpen);
            }
            ClosedFlagLease lease = new ClosedFlagLease(new StaticWorkerLease(WORKER_ID, marks));
            leases.add(lease);
            return lease;
        });
        AtomicReference<IdGenerator> joined = new AtomicReference<>();
        Thread opener = new Thread(() -> joined.set(runtime.generator(plan, new Object())));
        opener.start();
        opening.await();
        Thread closer = new Thread(runtime::closeAll);
        closer.start();
        // Ready when the closer waits for the open (or, were it not to wait, has returned already).
        while (closer.isAlive() && closer.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        letOpen.countDown();
        closer.join();
        assertFalse(leases.isEmpty(), "the close returned before the open it found in flight had finished");
        assertTrue(leases.get(0).closed, "the close returned and left the generation it saw opening open");
        opener.join();
        if (joined.get().hasEnded()) {
            assertEquals(1, leases.size());
            assertTrue(runtime.generators().isEmpty(), "no generation was opened after the close: " + runtime.generators());
        } else {
            assertEquals(2, leases.size(), "a live generator comes only from the next generation");
            assertEquals(List.of(joined.get()), List.copyOf(runtime.generators()));
            assertFalse(leases.get(1).closed, "the next generation is open");
        }
    }

    /** Remembers that the lease was closed (released). */
    private static final class ClosedFlagLease extends DelegatingLease {

        private volatile boolean closed;

        ClosedFlagLease(final WorkerLease lease) {
            super(lease);
        }

        @Override
        public void close() {
            closed = true;
            super.close();
        }
    }

    /** Until the thread parks (on the scope's latch: it has nothing else to wait for) or ends. */

    private static class DelegatingLease implements WorkerLease {

        private final WorkerLease lease;

        DelegatingLease(final WorkerLease lease) {
            this.lease = lease;
        }

        @Override
        public LeaseGrant currentGrant() {
            return lease.currentGrant();
        }

        @Override
        public String describe() {
            return lease.describe();
        }

        @Override
        public void close() {
            lease.close();
        }
    }
}
