package org.snowkey.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The contenders work as wired; no timing is asserted here (numbers belong in the README). */
class IdSourceTest {

    @Test
    void everyContenderIssuesIncreasingPositiveIds() {
        for (String each : IdSource.ALL) {
            try (IdSource source = IdSource.create(each)) {
                long first = source.nextId();
                long second = source.nextId();
                assertTrue(first > 0, each);
                assertTrue(second > first, each + ": " + first + " then " + second);
                assertTrue(IdSource.idsPerSecondCap(each) > 0, each);
            }
        }
    }

    @Test
    void batchesReadEveryId() {
        for (String each : IdSource.ALL) {
            try (IdSource source = IdSource.create(each)) {
                long before = source.nextId();
                long sum = source.nextIds(10);
                // Ten increasing ids above the one before: their sum exceeds ten times it.
                assertTrue(sum > 10 * before, each);
            }
        }
    }

    @Test
    void aRemainderThatNeverOccursMakesTheRatioInfinite() {
        BalanceReport.Row row = new BalanceReport.Row("x", "w", new long[][] {{3, 0}, {1, 1, 1, 1}, new long[8], new long[10], new long[16]});
        assertTrue(Double.isInfinite(row.ratio(0)));
        assertEquals(1.0, row.ratio(1));
    }
}
