package org.snowkey.keygen.runtime;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.StaticWorkerLease;
import org.snowkey.keygen.lease.WorkerLease;

/**
 * A join racing the last leave, made deterministic: the last owner of a scope leaves, and its lease's release parks just
 * before the lease records its high-water mark, while a new owner joins the scope. The new owner must neither get
 * the closing generator nor a static lease that read the high-water mark before the closing one recorded it.
 */
class JoinWhileLeavingTest {

    private static final int WORKER_ID = 61;

    private final SnowflakeRuntime runtime = SnowflakeRuntime.get();

    @AfterEach
    void closeAll() {
        runtime.closeAll();
    }

    @Test
    void aJoinDuringTheLastLeaveGetsAFreshGeneratorThatStartsAboveTheReleasedOne() throws Exception {
        ParkingRelease parking = new ParkingRelease();
        AtomicInteger leasesOpened = new AtomicInteger();
        Properties props = new Properties();
        props.setProperty("worker-id", Integer.toString(WORKER_ID));
        SnowflakePlan planned = SnowflakePlanner.get().plan(props, Optional.empty());
        SnowflakePlan plan = new SnowflakePlan(planned.settings(), planned.scopeKey(), () -> {
            StaticWorkerLease lease = new StaticWorkerLease(WORKER_ID);
            return leasesOpened.getAndIncrement() == 0 ? parking.around(lease) : lease;
        }, false);

        Object leaving = new Object();
        IdGenerator first = runtime.generator(plan, leaving);
        long lastOfFirst = 0;
        for (int i = 0; i < 1_000; i++) {
            lastOfFirst = first.nextId();
        }
        long highWaterOfFirst = first.decode(lastOfFirst).timestamp().toEpochMilli();

        Thread leaver = new Thread(() -> runtime.release(leaving), "last-owner-leaves");
        leaver.start();
        parking.parked.await();

        AtomicReference<IdGenerator> joined = new AtomicReference<>();
        AtomicReference<Long> firstIdOfJoined = new AtomicReference<>();
        AtomicReference<Throwable> joinFailure = new AtomicReference<>();
        Thread joiner = new Thread(() -> {
            try {
                IdGenerator generator = runtime.generator(plan, new Object());
                joined.set(generator);
                firstIdOfJoined.set(generator.nextId());
            } catch (final RuntimeException ex) {
                joinFailure.set(ex);
            }
        }, "new-owner-joins");
        joiner.start();
        // The joiner either finishes (it did not wait for the release) or waits for it: both are states to look at.
        while (joiner.isAlive() && joiner.getState() != Thread.State.WAITING && joiner.getState() != Thread.State.BLOCKED) {
            Thread.onSpinWait();
        }
        parking.proceed.countDown();
        leaver.join();
        joiner.join();

        assertNull(joinFailure.get(), () -> "the new owner got the closing generator: " + joinFailure.get());
        assertNotSame(first, joined.get());
        LeaseGrant grant = joined.get().currentGrant();
        assertTrue(grant.floorMillis() > highWaterOfFirst, () -> "the new static lease starts at " + grant.floorMillis()
                + ", not above the high-water mark " + highWaterOfFirst + " of the lease it follows: its ids may repeat");
        assertTrue(firstIdOfJoined.get() > lastOfFirst, "ids of the new generation come after the old one's");
    }

    /** Wraps the first lease: its release parks until the test lets it proceed. */
    private static final class ParkingRelease {

        private final CountDownLatch parked = new CountDownLatch(1);

        private final CountDownLatch proceed = new CountDownLatch(1);

        WorkerLease around(final WorkerLease lease) {
            return new WorkerLease() {

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
                    parked.countDown();
                    try {
                        proceed.await();
                    } catch (final InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                    lease.close();
                }
            };
        }
    }
}
