package org.snowkey.keygen.generator;

import java.util.List;
import java.util.Optional;

import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
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

    /**
     * Adds one extra holding at once, whatever the demand: a sibling of the generator's lease, acquired here (the growth
     * check does the same for each extra it adds). The id space gives it back instead when its floor lies ahead of the
     * clock, or when the generator is closing.
     *
     * @return the sibling lease, or empty when the lease has no pool or no number could be had
     */
    public static Optional<WorkerLease> addHolding(final IdGenerator generator) {
        IdSpace idSpace = generator.idSpace();
        Optional<WorkerLease> sibling = idSpace.lease().openSibling();
        if (sibling.isEmpty()) {
            return Optional.empty();
        }
        try {
            sibling.get().currentGrant();
        } catch (final RuntimeException ex) {
            sibling.get().close();
            return Optional.empty();
        }
        if (!idSpace.addHoldings(List.of(sibling.get()))) {
            sibling.get().close();
            return Optional.empty();
        }
        return sibling;
    }

    /**
     * Gives back the most recently added extra holding at once, as the shrink check does for half of them, and closes
     * its lease.
     *
     * @return false when there was none
     */
    public static boolean removeHolding(final IdGenerator generator) {
        List<WorkerLease> removed = generator.idSpace().removeHoldings(1);
        removed.forEach(WorkerLease::close);
        return !removed.isEmpty();
    }

    /** Gives back every extra holding at once and closes their leases; ids issue on the lease's own worker id alone. */
    public static void removeAllHoldings(final IdGenerator generator) {
        generator.idSpace().removeHoldings(Integer.MAX_VALUE).forEach(WorkerLease::close);
    }

    /** The grants the generator issues on now, ranked by worker id (empty before its first id). */
    public static List<LeaseGrant> holdingGrants(final IdGenerator generator) {
        return generator.idSpace().grants();
    }
}
