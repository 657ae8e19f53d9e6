package org.snowkey.lease.testing;

import java.util.Map;

import org.snowkey.keygen.segment.StartValues;

/** Start values of the range-store tests, which test allocation rather than migrated tables. */
public final class StartValuesFixtures {

    private StartValuesFixtures() {
    }

    /** Every key starts at 1, as a key generator without {@code segment-start-value} has it. */
    public static StartValues everyKeyAtOne() {
        return new StartValues(1L, Map.of());
    }
}
