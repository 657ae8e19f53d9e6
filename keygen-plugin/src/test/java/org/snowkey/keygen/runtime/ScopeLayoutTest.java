package org.snowkey.keygen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.generator.IdUnavailableException;
import org.snowkey.keygen.lease.StaticHighWaterMarks;
import org.snowkey.keygen.lease.StaticWorkerLease;
import org.snowkey.keygen.testing.ManualClock;

/** Key generators sharing a scope share its lease, so they must share the layout: each part of it is checked. */
class ScopeLayoutTest {

    private final SnowflakeRuntime runtime = new SnowflakeRuntime(WallClock.system(), hook -> { }, Scopes.Waiting.PARK);

    private final SnowflakePlanner planner = new SnowflakePlanner(Map.of(), new StaticHighWaterMarks());

    @AfterEach
    void closeAll() {
        runtime.closeAll();
    }

    private SnowflakePlan plan(final String... extraProps) {
        Properties props = new Properties();
        props.setProperty("worker-id", "7");
        for (int i = 0; i < extraProps.length; i += 2) {
            props.setProperty(extraProps[i], extraProps[i + 1]);
        }
        return planner.plan(props, Optional.empty());
    }

    @ParameterizedTest
    @CsvSource({"worker-id-bits, 12, worker-id-bits=12", "sequence-low-bits, 3, sequence-low-bits=3", "epoch, 2024-06-01T00:00:00Z, epoch=2024-06-01T00:00:00Z"})
    void aSecondLayoutInAnOpenScopeFailsNamingBothLayouts(final String prop, final String value, final String named) {
        runtime.generator(plan(), new Object());
        IllegalStateException failure = assertThrows(IllegalStateException.class, () -> runtime.generator(plan(prop, value), new Object()));
        assertTrue(failure.getMessage().contains("already runs with IdLayout[worker-id-bits=13"), failure.getMessage());
        assertTrue(failure.getMessage().contains(named), failure.getMessage());
        assertTrue(failure.getMessage().contains("must share these settings"), failure.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"worker-id-bits, 12", "sequence-low-bits, 3", "epoch, 2024-06-01T00:00:00Z"})
    void aSecondLayoutThatJoinsWhileTheScopeOpensWaitsAndFails(final String prop, final String value) throws Exception {
        CountDownLatch opening = new CountDownLatch(1);
        CountDownLatch letOpen = new CountDownLatch(1);
        AtomicInteger leasesOpened = new AtomicInteger();
        SnowflakePlan planned = plan();
        SnowflakePlan slowToOpen = new SnowflakePlan(planned.settings(), planned.scopeKey(), () -> {
            leasesOpened.incrementAndGet();
            opening.countDown();
            try {
                letOpen.await();
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            return new StaticWorkerLease(7, new StaticHighWaterMarks());
        }, false);
        Thread opener = new Thread(() -> runtime.generator(slowToOpen, new Object()), "opens-the-scope");
        opener.start();
        opening.await();

        AtomicReference<Throwable> secondJoin = new AtomicReference<>();
        Thread other = new Thread(() -> {
            try {
                runtime.generator(plan(prop, value), new Object());
            } catch (final RuntimeException ex) {
                secondJoin.set(ex);
            }
        }, "joins-with-another-layout");
        other.start();
        while (other.isAlive() && other.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        letOpen.countDown();
        opener.join();
        other.join();

        assertInstanceOf(IllegalStateException.class, secondJoin.get(), "the join that raced the open was refused, not given a lease of its own");
        assertEquals(1, leasesOpened.get());
        assertEquals(1, runtime.generators().size(), "one generator, one lease for the scope");
    }

    /**
     * A static worker id whose scope closed (its data source closed) and opened again in this JVM with a later
     * {@code epoch}: the next generation started above the released high-water mark in wall-clock milliseconds, but an
     * id carries {@code wall - epoch}, so one second of epoch later and one second of wall clock later it issued the
     * very ids of the first generation. The high-water mark must bind the timestamp the ids carry.
     */
    @ParameterizedTest
    @CsvSource({"2025-01-01T00:00:01Z, 1000", "2025-01-01T00:10:00Z, 600000", "2024-12-31T23:59:59Z, 1000"})
    void aStaticWorkerIdReopenedWithAnotherEpochNeverRepeatsAnId(final String laterEpoch, final long wallClockStep) {
        ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli()).advanceOnPause(true);
        SnowflakeRuntime reopening = new SnowflakeRuntime(clock, hook -> { }, Scopes.Waiting.PARK);
        Object firstContext = new Object();
        IdGenerator first = reopening.generator(plan("epoch", "2025-01-01T00:00:00Z"), firstContext);
        Set<Long> issued = new HashSet<>();
        long highestFirst = 0;
        for (int i = 0; i < 20; i++) {
            long id = first.stream("t_order").nextId();
            issued.add(id);
            highestFirst = Math.max(highestFirst, id);
        }
        reopening.release(firstContext);
        clock.advance(wallClockStep);
        Object secondContext = new Object();
        IdGenerator second = reopening.generator(plan("epoch", laterEpoch), secondContext);
        try {
            for (int i = 0; i < 20; i++) {
                long id = second.stream("t_order").nextId();
                assertTrue(issued.add(id), "id " + id + " of the reopened scope (epoch " + laterEpoch + ") was issued by the first one");
                assertTrue(id > highestFirst, "the reopened scope continues above the first one's ids: " + id + " after " + highestFirst);
            }
        } catch (final IdUnavailableException refused) {
            // A floor further ahead than the tolerance fails closed, naming the start; that issues nothing twice either.
            assertTrue(refused.getMessage().contains("starts at"), refused.getMessage());
        } finally {
            reopening.release(secondContext);
        }
    }

    /**
     * The epoch-relative mark: a static worker id reopened in this JVM with another worker-id-bits,
     * sequence-low-bits or epoch, with the wall clock stepped back (NTP) between the close and the reopen, and one
     * near the top of the 41 timestamp bits. Every id of the second generation lies above the first's (the timestamp
     * bits are the same top 41 bits in every layout), or the second generation refuses to issue, naming why.
     */
    @ParameterizedTest
    @CsvSource({
            "worker-id-bits=13;sequence-low-bits=1, worker-id-bits=10;sequence-low-bits=1, -5000",
            "worker-id-bits=10;sequence-low-bits=1, worker-id-bits=13;sequence-low-bits=4, 0",
            "sequence-low-bits=1, sequence-low-bits=3;epoch=2024-01-01T00:00:00Z, -1000",
            "epoch=2025-01-01T00:00:00Z, epoch=2025-01-01T00:00:00Z, -60000",
            "epoch=2025-01-01T00:00:00Z, epoch=2025-01-01T00:00:02Z, -1000"})
    void aStaticWorkerIdReopenedWithAnotherLayoutOrAClockSteppedBackNeverRepeatsAnId(final String firstLayout, final String secondLayout,
                                                                                    final long wallClockStep) {
        reopenAndCheck(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli(), firstLayout, secondLayout, wallClockStep);
    }

    /** The same near the top of the 41 timestamp bits (epoch 1970, wall clock 100 ms before they run out): the reopened scope ends cleanly. */
    @ParameterizedTest
    @CsvSource({"0, -50", "0, 0", "1, 0"})
    void aStaticWorkerIdReopenedNearTheTopOfTheTimestampBitsEndsWithoutRepeating(final long epochMillis, final long wallClockStep) {
        String layout = "epoch=" + Instant.ofEpochMilli(epochMillis);
        reopenAndCheck(org.snowkey.keygen.layout.IdLayout.MAX_TIMESTAMP - 100, layout, layout, wallClockStep);
    }

    private void reopenAndCheck(final long startMillis, final String firstLayout, final String secondLayout, final long wallClockStep) {
        ManualClock clock = new ManualClock(startMillis).advanceOnPause(true);
        SnowflakeRuntime reopening = new SnowflakeRuntime(clock, hook -> { }, Scopes.Waiting.PARK);
        Object firstContext = new Object();
        IdGenerator first = reopening.generator(plan(layoutProps(firstLayout)), firstContext);
        Set<Long> issued = new HashSet<>();
        long highestFirst = 0;
        for (int i = 0; i < 200; i++) {
            long id = first.stream("t_order").nextId();
            issued.add(id);
            highestFirst = Math.max(highestFirst, id);
        }
        reopening.release(firstContext);
        clock.set(clock.millis() + wallClockStep);
        Object secondContext = new Object();
        try {
            IdGenerator second = reopening.generator(plan(layoutProps(secondLayout)), secondContext);
            for (int i = 0; i < 200; i++) {
                long id = second.stream("t_order").nextId();
                assertTrue(issued.add(id), "id " + id + " of the reopened scope (" + secondLayout + ") was issued by the first one (" + firstLayout + ")");
                assertTrue(id > highestFirst, "the reopened scope continues above the first one's ids: " + id + " after " + highestFirst);
            }
        } catch (final IdUnavailableException refused) {
            assertTrue(refused.getMessage().contains("starts at") || refused.getMessage().contains("ran out"), refused.getMessage());
        } finally {
            reopening.release(secondContext);
        }
    }

    private static String[] layoutProps(final String layout) {
        return java.util.Arrays.stream(layout.split(";")).flatMap(each -> java.util.Arrays.stream(each.split("=", 2))).toArray(String[]::new);
    }
}
