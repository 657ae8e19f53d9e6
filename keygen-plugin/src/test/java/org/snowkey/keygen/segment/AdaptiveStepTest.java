package org.snowkey.keygen.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.config.InvalidSettingException;

class AdaptiveStepTest {

    private static final long TARGET = TimeUnit.SECONDS.toNanos(10);

    private final AdaptiveStep step = new AdaptiveStep(1_000, 64_000, TARGET);

    @Test
    void theFirstRangeHasTheSmallestStep() {
        assertEquals(1_000, step.next(5_000, -1));
    }

    @Test
    void aRangeUsedUpInLessThanHalfTheTargetDoublesTheStepUpToTheMaximum() {
        assertEquals(8_000, step.next(4_000, TARGET / 2 - 1));
        assertEquals(64_000, step.next(48_000, 1));
    }

    @Test
    void aRangeThatLastedMoreThanTwiceTheTargetHalvesTheStepDownToTheMinimum() {
        assertEquals(2_000, step.next(4_000, TARGET * 2 + 1));
        assertEquals(1_000, step.next(1_500, TimeUnit.HOURS.toNanos(1)));
    }

    @Test
    void aRangeNearTheTargetKeepsTheStep() {
        assertEquals(4_000, step.next(4_000, TARGET));
        assertEquals(4_000, step.next(4_000, TARGET / 2));
        assertEquals(4_000, step.next(4_000, TARGET * 2));
    }

    @Test
    void eachSettingIsCheckedNamingItsProp() {
        InvalidSettingException max = assertThrows(InvalidSettingException.class, () -> new SegmentSettings(100, 50, 10_000, 10, 3_000));
        assertTrue(max.getMessage().contains("'segment-step-max' = '50'") && max.getMessage().contains("segment-step-min (100)"), max.getMessage());
        InvalidSettingException min = assertThrows(InvalidSettingException.class, () -> new SegmentSettings(0, 50, 10_000, 10, 3_000));
        assertTrue(min.getMessage().contains("'segment-step-min' = '0'"), min.getMessage());
        InvalidSettingException percent = assertThrows(InvalidSettingException.class, () -> new SegmentSettings(1, 50, 10_000, 100, 3_000));
        assertTrue(percent.getMessage().contains("'segment-prefetch-percent' = '100'"), percent.getMessage());
        InvalidSettingException above = assertThrows(InvalidSettingException.class, () -> new SegmentSettings(1, 1L << 53, 10_000, 10, 3_000));
        assertTrue(above.getMessage().contains("2^53 - 1"), above.getMessage());
    }
}
