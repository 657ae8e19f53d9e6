package org.snowkey.segment.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.keygen.segment.StartValues;

/** The rule both tree stores (etcd, ZooKeeper) turn a counter into a range with; the numbers the two copies it replaced gave. */
class CounterRangesTest {

    private static final long MAX = NumberRange.MAX_KEY;

    private static final StartValues STARTS = new StartValues(1, Map.of("t_started", 1_000L));

    private static NumberRange next(final String key, final long counter, final long wanted) {
        return CounterRanges.next(key, "/counter", counter, STARTS, wanted, "the store");
    }

    @Test
    void aRangeRunsFromTheCounterForTheWantedSize() {
        assertEquals(new NumberRange(1, 100), next("t_order", 1, 100));
        assertEquals(new NumberRange(2_000, 2_099), next("t_started", 2_000, 100), "a counter above the start value wins");
    }

    @Test
    void aStartValueAboveTheCounterLiftsTheRange() {
        assertEquals(new NumberRange(1_000, 1_099), next("t_started", 5, 100));
    }

    @Test
    void theLastRangeStopsAtTwoToTheFiftyThreeMinusOne() {
        assertEquals(new NumberRange(MAX - 9, MAX), next("t_order", MAX - 9, 100));
        assertEquals(new NumberRange(MAX, MAX), next("t_order", MAX, Long.MAX_VALUE));
        assertEquals(new NumberRange(1, MAX), next("t_order", 1, MAX), "the largest size the allocators ask for");
    }

    @Test
    void aCounterPastTheLastNumberIsRefusedNamingTheKeyAndTheCounter() {
        for (long counter : new long[] {MAX + 1, Long.MAX_VALUE}) {
            RangeUnavailableException refused = assertThrows(RangeUnavailableException.class, () -> next("t_order", counter, 1));
            assertTrue(refused.getMessage().contains("'t_order'") && refused.getMessage().contains("/counter") && refused.getMessage().contains("the store")
                    && refused.getMessage().contains("used up"), refused.getMessage());
        }
    }
}
