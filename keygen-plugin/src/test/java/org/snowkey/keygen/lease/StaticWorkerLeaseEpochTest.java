package org.snowkey.keygen.lease;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.testing.ManualClock;

/**
 * A static lease records its high-water mark as the timestamp its ids carry, which depends on the epoch it was made
 * for. The constructors without an epoch assume the default one: given to a generator whose layout has another epoch,
 * the floor it reads from a mark left under that epoch lies below what was issued, and in the same millisecond the
 * reopened worker id repeats the ids of the closed one. Such a generator is refused.
 */
class StaticWorkerLeaseEpochTest {

    private static final long CUSTOM_EPOCH = IdLayout.defaults().epochMillis() + 3_600_000L;

    @Test
    void aStaticLeaseMadeForTheDefaultEpochIsRefusedByALayoutOfAnotherEpoch() {
        IdLayout layout = IdLayout.of(10, 1, CUSTOM_EPOCH);
        ManualClock clock = new ManualClock(System.currentTimeMillis());
        StaticHighWaterMarks marks = new StaticHighWaterMarks();
        Set<Long> issued = new HashSet<>();
        try (IdGenerator first = new IdGenerator(layout, new StaticWorkerLease(3, CUSTOM_EPOCH, marks), clock, new ClockRules(10, 0))) {
            for (int i = 0; i < 10; i++) {
                issued.add(first.nextId());
            }
        }
        // Reopened in the same millisecond, through the constructor that assumes the default epoch.
        StaticWorkerLease defaultEpoch = new StaticWorkerLease(3, marks);
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> {
            try (IdGenerator second = new IdGenerator(layout, defaultEpoch, clock, new ClockRules(10, 0))) {
                long id = second.nextId();
                assertTrue(issued.add(id), "the reopened static worker id repeated " + layout.decode(id));
            }
        });
        assertTrue(refused.getMessage().contains("epoch"), refused.getMessage());
    }
}
