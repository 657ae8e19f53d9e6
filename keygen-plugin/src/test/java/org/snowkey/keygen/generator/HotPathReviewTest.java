package org.snowkey.keygen.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.testing.ManualClock;
import org.snowkey.keygen.testing.MemoryLeasePool;
import org.snowkey.keygen.testing.SwitchableLease;

/**
 * The id path of commit d3fff0a under extreme but allowed settings: its one range check compares counter values in
 * wrapping long arithmetic, and the sealed value (Long.MIN_VALUE) must fail it whatever the clock reads.
 */
class HotPathReviewTest {

    private static final long EPOCH = 1_700_000_000_000L;

    /**
     * W = 1, L = 0 and both numbers of the pool held (K = 2): a millisecond is 2^22 combined counter values, and the
     * largest time cache cap (2^41 - 1 ms) spans 2^63 - 2^22 of them. With the clock stepped back to 1 ms before the
     * epoch, {@code nowCounter - timeCacheSpan} is exactly Long.MIN_VALUE, the sealed value: the range check lets a
     * sealed counter through, and its compare-and-set against the seal succeeds. A lease released (its high-water mark
     * written) then still issues.
     */
    @Test
    @Timeout(30)
    void aSealedCounterIssuesNothingAfterARelease() {
        IdLayout layout = IdLayout.of(1, 0, EPOCH);
        ManualClock clock = new ManualClock(EPOCH + 1_000).advanceOnPause(true);
        MemoryLeasePool pool = new MemoryLeasePool(layout.workerIdCount(), clock);
        pool.boundNewGrants(EPOCH + 60_000);
        MemoryLeasePool.PoolLease lease = pool.open();
        IdGenerator generator = GeneratorTestAccess.withManualHoldings(layout, lease, clock, new ClockRules(10, IdLayout.MAX_TIMESTAMP), 2);
        SequenceStream stream = generator.stream("t");
        long before = stream.nextId();
        assertTrue(GeneratorTestAccess.addHolding(generator).isPresent(), "the pool's second number is held too");
        before = Math.max(before, stream.nextId());
        assertEquals(2, generator.workerIds().length);

        // The clock steps back to 1 ms before the epoch, and the lease is released: its counter is sealed.
        clock.set(EPOCH - 1);
        lease.close();
        long releasedAt = pool.reservedUntil(lease.grant().workerId()).orElseThrow();
        long id;
        try {
            id = stream.nextId();
        } catch (final RuntimeException expected) {
            // Closed lease or clock moved back: nothing issued.
            return;
        }
        fail("an id after the release of " + lease.grant() + " (high-water mark " + releasedAt + "): " + id + ", the last id before was " + before);
    }

    /**
     * The window the commit opened: the id path no longer reads the lease, so a thread's stale view is the counter
     * itself. A thread that read the counter's value and stopped before its compare-and-set (parked here in its clock
     * read, the first thing after that read) while the grant was revoked, the lease moved to a new grant and a burst ran
     * on it, must fail against the seal and issue on the new grant, above the burst. (It does: the seal is permanent,
     * and a sealed counter is never written again. LeaseChangeInterleavingTest gates the same story on
     * lease.currentGrant(), which the id path no longer calls; its two tests time out on d3fff0a.)
     */
    @Test
    @Timeout(30)
    void aThreadStoppedBetweenItsReadOfTheCounterAndItsCompareAndSetIssuesOnTheNewGrant() throws Exception {
        IdLayout layout = IdLayout.of(20, 1, IdLayout.defaults().epochMillis());
        long t = layout.epochMillis() + 1_000_000L;
        ManualClock manual = new ManualClock(t).advanceOnPause(true);
        CountDownLatch paused = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        AtomicBoolean gate = new AtomicBoolean(true);
        WallClock clock = new WallClock() {
            @Override
            public long millis() {
                if (Thread.currentThread().getName().equals("stale") && gate.compareAndSet(true, false)) {
                    paused.countDown();
                    try {
                        resume.await();
                    } catch (final InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                }
                return manual.millis();
            }

            @Override
            public long preciseMillis() {
                return manual.preciseMillis();
            }

            @Override
            public void parkNanos(final long nanos) {
                manual.parkNanos(nanos);
            }
        };
        LeaseGrant first = new LeaseGrant(1, t, LeaseGrant.UNBOUNDED, "worker id 1");
        SwitchableLease lease = new SwitchableLease(first);
        SequenceStream stream = new IdGenerator(layout, lease, clock, new ClockRules(10_000, 10_000)).stream("t");
        stream.nextId();
        manual.advance(5);
        CompletableFuture<Long> stale = CompletableFuture.supplyAsync(stream::nextId, runnable -> new Thread(runnable, "stale").start());
        assertTrue(paused.await(10, TimeUnit.SECONDS), "the stale thread read the counter");
        first.revoke("lost in a test");
        lease.replace(new LeaseGrant(2, t, LeaseGrant.UNBOUNDED, "worker id 2"));
        long lastOfBurst = Long.MIN_VALUE;
        for (int i = 0; i < 10; i++) {
            lastOfBurst = Math.max(lastOfBurst, stream.nextId());
        }
        resume.countDown();
        long fromStale = stale.get(10, TimeUnit.SECONDS);
        assertEquals(2, layout.decode(fromStale).workerId(), "nothing more on the revoked grant");
        assertNotEquals(lastOfBurst, fromStale);
        assertTrue(fromStale > lastOfBurst, "above the burst on the new grant");
    }

    /**
     * The id path no longer asks the lease per id, so an expiry the lease's renewal thread has not noticed (stuck in a
     * registry call) is first met at the grant's ceiling. There the lease must be asked again, as every id asked it
     * before: it notices the expiry, revokes and acquires anew. Waiting for a renewal that cannot come failed every call
     * with "lease ceiling reached" instead.
     */
    @Test
    @Timeout(30)
    void aLeaseExpiredUnnoticedIsAskedAgainAtItsCeilingInsteadOfFailing() {
        IdLayout layout = IdLayout.of(20, 1, EPOCH);
        long t = EPOCH + 1_000_000;
        ManualClock clock = new ManualClock(t).advanceOnPause(true);
        ExpiringLease lease = new ExpiringLease(clock, new LeaseGrant(1, t, t + 100, "worker id 1"), t + 100);
        IdGenerator generator = new IdGenerator(layout, lease, clock, new ClockRules(10, 10_000));
        SequenceStream stream = generator.stream("t");
        stream.nextId();
        clock.advance(200);
        // Two ids per ms: a batch of 300 reaches 150 ms past the first id, beyond the first grant's ceiling.
        IdBatch batch = stream.nextIds(300);
        for (int i = 0; i < batch.size(); i++) {
            var decoded = layout.decode(batch.id(i));
            if (decoded.workerId() == 1) {
                assertTrue(decoded.timestamp().toEpochMilli() <= t + 100, "no id of the expired grant above its ceiling: " + decoded);
            }
        }
        assertEquals(2, layout.decode(batch.id(batch.size() - 1)).workerId(), "the lease was asked again and moved on");
    }

    /** A lease that notices its expiry only when asked for its grant, as a registry lease whose renewals are stuck. */
    private static final class ExpiringLease implements org.snowkey.keygen.lease.WorkerLease {

        private final ManualClock clock;

        private LeaseGrant grant;

        private long expiresAt;

        ExpiringLease(final ManualClock clock, final LeaseGrant grant, final long expiresAt) {
            this.clock = clock;
            this.grant = grant;
            this.expiresAt = expiresAt;
        }

        @Override
        public synchronized LeaseGrant currentGrant() {
            if (clock.millis() > expiresAt) {
                grant.revoke("expired (test)");
                long floor = expiresAt + 1;
                expiresAt = clock.millis() + 10_000;
                grant = new LeaseGrant(2, floor, expiresAt, "worker id 2");
            }
            return grant;
        }

        @Override
        public String describe() {
            return "expiring test lease";
        }

        @Override
        public synchronized void close() {
            grant.sealForRelease("closed");
        }
    }
}
