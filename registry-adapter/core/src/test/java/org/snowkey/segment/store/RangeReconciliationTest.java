package org.snowkey.segment.store;

import org.snowkey.keygen.segment.StartValues;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.segment.NumberRange;

class RangeReconciliationTest {

    private static NumberRange range(final long first, final long last) {
        return new NumberRange(first, last);
    }

    @Test
    void contiguousRangesInAnyOrderAreClean() {
        RangeReconciliation result = RangeReconciliation.of("k", List.of(range(11, 20), range(1, 10), range(21, 21)), OptionalLong.of(22));
        assertEquals(List.of(range(1, 10), range(11, 20), range(21, 21)), result.ranges());
        assertEquals(List.of(), result.gaps());
        assertTrue(result.consistent());
        assertEquals("key 'k': 3 ranges from 1 to 21, 0 gaps, 0 overlaps (OK)", result.report());
    }

    @Test
    void gapsBetweenRangesAndBeforeTheCounterAreReported() {
        RangeReconciliation result = RangeReconciliation.of("k", List.of(range(1, 10), range(16, 20)), OptionalLong.of(31)).requireNoOverlap();
        assertEquals(List.of(range(11, 15), range(21, 30)), result.gaps());
        assertTrue(result.report().contains("gap 11..15 (5 numbers never issued)"), result.report());
    }

    @Test
    void overlapsFailLoudlyEvenWhenNestedInAnEarlierRange() {
        RangeReconciliation result = RangeReconciliation.of("k", List.of(range(1, 100), range(101, 110), range(50, 60)), OptionalLong.empty());
        assertFalse(result.consistent());
        assertEquals(List.of("ranges 1..100 and 50..60 share 50..60"), result.overlaps());
        RangeOverlapException loud = assertThrows(RangeOverlapException.class, result::requireNoOverlap);
        assertTrue(loud.getMessage().contains("'k'") && loud.getMessage().contains("50..60"), loud.getMessage());
        assertTrue(result.report().contains("OVERLAP ranges 1..100 and 50..60") && result.report().contains("(BROKEN)"), result.report());
    }

    @Test
    void aCounterNotAboveTheLogIsAnOverlapToCome() {
        RangeReconciliation result = RangeReconciliation.of("k", List.of(range(1, 10)), OptionalLong.of(10));
        assertEquals(1, result.overlaps().size());
        assertTrue(result.overlaps().get(0).contains("counter of key 'k' is at 10"), result.overlaps().get(0));
    }

    @Test
    void startValuesAreCheckedWithTheKeyAndTheValue() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> new StartValues(1, Map.of("orders", 0L)));
        assertTrue(zero.getMessage().contains("'orders'") && zero.getMessage().contains(" 0;"), zero.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new StartValues(NumberRange.MAX_KEY + 1, Map.of()));
        assertEquals(7, new StartValues(7, Map.of("x", 9L)).startOf("y"));
    }
}
