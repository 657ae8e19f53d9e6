package org.snowkey.keygen.generator;

import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.WorkerLease;

/**
 * Builds generators whose holdings grow and shrink only when a test says so, for tests outside this package (the
 * lease simulator, the model checks): no background thread, dropped holdings closed on the dropping thread.
 */
public final class GeneratorTestAccess {

    private GeneratorTestAccess() {
    }

    /** A generator that may grow to {@code maxWorkerIds} holdings, its checks run by {@link #checkHoldings}. */
    public static IdGenerator withManualHoldings(final IdLayout layout, final WorkerLease lease, final WallClock clock, final ClockRules rules,
                                                 final int maxWorkerIds) {
        return new IdGenerator(layout, lease, clock, rules, maxWorkerIds, null);
    }

    /** One check of the generator's holdings, as the background thread runs it every 100 ms. */
    public static void checkHoldings(final IdGenerator generator) {
        generator.growth().tick();
    }

    /** Checks in a row that a stream at its cap needs before its holdings grow. */
    public static int checksToGrow() {
        return HoldingsGrowth.HOT_TICKS_TO_GROW;
    }

    /** Checks in a row without a wait for the clock before the holdings halve. */
    public static int checksToShrink() {
        return HoldingsGrowth.IDLE_TICKS_TO_SHRINK;
    }
}
