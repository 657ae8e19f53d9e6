package org.snowkey.keygen.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.testing.ManualClock;
import org.snowkey.keygen.testing.MemoryLeasePool;

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
}
