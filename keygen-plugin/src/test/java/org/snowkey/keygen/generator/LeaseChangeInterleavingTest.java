package org.snowkey.keygen.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.WorkerLease;
import org.snowkey.keygen.testing.ManualClock;

/**
 * A thread paused inside the counter of a grant that is lost meanwhile must never issue on the stale grant, nor open a
 * second live counter on the grant in force. The id path reads no grant (a revocation seals the counter), so the pause
 * is placed where a stale view can be held now: after the thread read the counter's last value and before its
 * compare-and-set, with a clock that parks one chosen thread at its first reading. The lease is asked for its grant only
 * under the id space's lock; a lease that parks there must not block the count of issued ids.
 */
class LeaseChangeInterleavingTest {

    /** Two ids per millisecond and worker id (S = 2, L = 1), so that a short burst reaches the clock's edge. */
    private static final IdLayout LAYOUT = IdLayout.of(20, 1, IdLayout.defaults().epochMillis());

    private static final long T = LAYOUT.epochMillis() + 1_000_000L;

    @Test
    @Timeout(60)
    void aThreadPausedInsideTheCounterOfALostGrantDoesNotOpenASecondCounterOnTheNewGrant() throws Exception {
        ManualClock manual = new ManualClock(T);
        Map<String, AtomicInteger> preciseReads = new ConcurrentHashMap<>();
        CountDownLatch paused = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        AtomicInteger staleReadings = new AtomicInteger();
        WallClock clock = new WallClock() {
            @Override
            public long millis() {
                if (Thread.currentThread().getName().equals("stale") && staleReadings.incrementAndGet() == 1) {
                    // Read on the id path between the counter's last value and the compare-and-set.
                    paused.countDown();
                    awaitQuietly(resume);
                }
                return manual.millis();
            }

            @Override
            public long preciseMillis() {
                preciseReads.computeIfAbsent(Thread.currentThread().getName(), key -> new AtomicInteger()).incrementAndGet();
                return manual.preciseMillis();
            }
        };
        LeaseGrant first = new LeaseGrant(1, T, LeaseGrant.UNBOUNDED, "worker id 1");
        GatedLease lease = new GatedLease(first, "no thread");
        SequenceStream stream = new IdGenerator(LAYOUT, lease, clock, new ClockRules(10_000, 10_000)).stream("t");
        stream.nextId();
        manual.advance(5);

        // C reads the first grant's counter and stops before its compare-and-set.
        CompletableFuture<Long> stale = CompletableFuture.supplyAsync(stream::nextId, runnable -> new Thread(runnable, "stale").start());
        assertTrue(paused.await(10, TimeUnit.SECONDS), "the stale thread reached the pause");

        // The first grant is lost; a second is acquired. A burst runs its counter to the clock's edge.
        first.revoke("lost in a test");
        LeaseGrant second = new LeaseGrant(2, T, LeaseGrant.UNBOUNDED, "worker id 2");
        lease.replace(second);
        long lastOfBurst = stream.nextId();
        assertEquals(2, LAYOUT.decode(lastOfBurst).workerId(), "the id space moved to the second grant");
        // The edge: the high sequence (shared by every stream of the worker id) at its last value of the millisecond.
        while (LAYOUT.decode(lastOfBurst).sequence() >> LAYOUT.sequenceLowBits() != LAYOUT.sustainedIdsPerMillisecond() - 1) {
            lastOfBurst = stream.nextId();
        }
        // B needs the next millisecond and waits for it inside the counter.
        CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(stream::nextId, runnable -> new Thread(runnable, "waiter").start());
        awaitPreciseReads(preciseReads, "waiter");
        // C resumes with its stale view of the first counter and also comes to wait for the next millisecond; then the
        // clock moves on.
        resume.countDown();
        awaitPreciseReads(preciseReads, "stale");
        manual.advance(1);
        long fromWaiter = waiting.get(10, TimeUnit.SECONDS);
        long fromStale = stale.get(10, TimeUnit.SECONDS);
        assertNotEquals(fromWaiter, fromStale, "two threads got the same id " + LAYOUT.decode(fromWaiter));
        assertEquals(2, LAYOUT.decode(fromStale).workerId(), "the stale grant is never issued on again");
        assertTrue(fromWaiter > lastOfBurst && fromStale > lastOfBurst);
    }

    private static void awaitQuietly(final CountDownLatch latch) {
        try {
            latch.await();
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    // A stream moving to a new grant waits for the lease under the stream's lock (up to the acquire
    // timeout while a registry is down). The ids-issued count of metrics and the actuator endpoint took the same lock,
    // so a health or metrics scrape hung for as long.
    @Test
    @Timeout(60)
    void countingIssuedIdsDoesNotWaitForALeaseBeingAcquired() throws Exception {
        ManualClock clock = new ManualClock(T);
        LeaseGrant first = new LeaseGrant(1, T, LeaseGrant.UNBOUNDED, "worker id 1");
        // The mover's first question to the lease: the id path asks none; the move does, under the id space's lock.
        GatedLease lease = new GatedLease(first, "mover", 1);
        SequenceStream stream = new IdGenerator(LAYOUT, lease, clock, new ClockRules(10_000, 10_000)).stream("t");
        stream.nextId();
        clock.advance(5);
        first.revoke("lost in a test");
        lease.replace(new LeaseGrant(2, T, LeaseGrant.UNBOUNDED, "worker id 2"));
        // The mover finds its counter sealed by the revocation and, under the id space's lock, asks the lease: the lease is
        // acquiring.
        CompletableFuture<Long> moving = CompletableFuture.supplyAsync(stream::nextId, runnable -> new Thread(runnable, "mover").start());
        assertTrue(lease.paused.await(10, TimeUnit.SECONDS), "the mover waits for the lease");
        try {
            CompletableFuture<Long> counted = CompletableFuture.supplyAsync(stream::idsIssued);
            assertEquals(1, counted.get(10, TimeUnit.SECONDS), "the count answers while the lease is being acquired");
        } finally {
            lease.resume.countDown();
        }
        moving.get(10, TimeUnit.SECONDS);
        assertEquals(2, stream.idsIssued());
    }

    /** A thread that keeps reading the precise clock is waiting for the next millisecond inside a grant counter. */
    private static void awaitPreciseReads(final Map<String, AtomicInteger> preciseReads, final String thread) {
        while (preciseReads.getOrDefault(thread, new AtomicInteger()).get() < 10) {
            Thread.onSpinWait();
        }
    }

    /** A lease whose grant a test replaces, and which parks one named thread right after it read the grant. */
    private static final class GatedLease implements WorkerLease {

        final CountDownLatch paused = new CountDownLatch(1);

        final CountDownLatch resume = new CountDownLatch(1);

        private final String gatedThread;

        /** The call of the gated thread that parks: 1 for its first. */
        private final int gatedCall;

        private final AtomicInteger calls = new AtomicInteger();

        private volatile LeaseGrant grant;

        GatedLease(final LeaseGrant grant, final String gatedThread) {
            this(grant, gatedThread, 1);
        }

        GatedLease(final LeaseGrant grant, final String gatedThread, final int gatedCall) {
            this.grant = grant;
            this.gatedThread = gatedThread;
            this.gatedCall = gatedCall;
        }

        void replace(final LeaseGrant next) {
            grant = next;
        }

        @Override
        public LeaseGrant currentGrant() {
            LeaseGrant read = grant;
            if (Thread.currentThread().getName().equals(gatedThread) && calls.incrementAndGet() == gatedCall) {
                paused.countDown();
                try {
                    resume.await();
                } catch (final InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }
            return read;
        }

        @Override
        public String describe() {
            return "gated test lease";
        }

        @Override
        public void close() {
            grant.sealForRelease("closed");
        }
    }
}
