package org.snowkey.keygen.clock;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The cached reading never leads the clock, and keeps following it however the clock was first read. */
class SystemWallClockTest {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void theCachedReadingFollowsTheClockEvenWhenAPreciseReadingCameFirst() {
        SystemWallClock clock = new SystemWallClock();
        // A precise reading before any cached one: it must not fill the cache, which no ticker would refresh then.
        long precise = clock.preciseMillis();
        long before = System.currentTimeMillis();
        long first = clock.millis();
        assertTrue(first <= System.currentTimeMillis() && first >= precise, "the first cached reading " + first + " is not the clock's");

        long later = clock.millis();
        while (later <= before) {
            // Until the ticker has moved the cache past the moment of the first reading (the test's timeout ends a stale cache).
            Thread.onSpinWait();
            later = clock.millis();
        }
        assertTrue(later <= System.currentTimeMillis(), "the cached reading " + later + " leads the clock");
    }
}
