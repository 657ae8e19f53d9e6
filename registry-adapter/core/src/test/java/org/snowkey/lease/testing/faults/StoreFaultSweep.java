package org.snowkey.lease.testing.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs one scenario against a fresh store once without faults, to learn every call site it uses and how often, then
 * once for each (call site, occurrence, fault) with that one fault armed. The scenario checks its own invariants and
 * throws when one breaks; the sweep names the fault that broke it. The store is the caller's: {@code fresh} makes an
 * empty one (a new database, a new ZooKeeper namespace) described by the fault it is for, {@code scheduleOf} finds
 * the schedule its injector consults.
 *
 * @param <R> what one run of the scenario gets: the fresh store's address and its schedule
 */
public final class StoreFaultSweep<R> {

    private final int occurrencesPerSite;

    private final List<StoreFault> faults;

    private final Function<String, R> fresh;

    private final Function<R, FaultSchedule> scheduleOf;

    /**
     * @param occurrencesPerSite how many first calls of each site are broken, each in a run of its own
     * @param faults             the ways each of them is broken
     */
    public StoreFaultSweep(final int occurrencesPerSite, final List<StoreFault> faults, final Function<String, R> fresh, final Function<R, FaultSchedule> scheduleOf) {
        this.occurrencesPerSite = occurrencesPerSite;
        this.faults = List.copyOf(faults);
        this.fresh = fresh;
        this.scheduleOf = scheduleOf;
    }

    /**
     * @return the faults injected (kind, occurrence, site), one per run whose fault fired, for the caller to assert on
     * @throws AssertionError naming the fault, when the scenario failed under it
     */
    public List<String> sweep(final Consumer<R> scenario) {
        R clean = fresh.apply("none");
        scenario.accept(clean);
        Map<String, Integer> sites = scheduleOf.apply(clean).sites();
        if (sites.isEmpty()) {
            throw new AssertionError("the scenario used no store call");
        }
        List<String> injected = new ArrayList<>();
        sites.forEach((site, count) -> {
            for (int occurrence = 1; occurrence <= Math.min(count, occurrencesPerSite); occurrence++) {
                for (StoreFault fault : faults) {
                    String description = fault + " at call " + occurrence + " of [" + site + "]";
                    R run = fresh.apply(description);
                    FaultSchedule schedule = scheduleOf.apply(run);
                    schedule.arm(site, occurrence, fault);
                    try {
                        scenario.accept(run);
                    } catch (final RuntimeException | AssertionError ex) {
                        throw new AssertionError("under " + description + ": " + ex.getMessage(), ex);
                    }
                    if (schedule.fired()) {
                        injected.add(description);
                    }
                }
            }
        });
        return injected;
    }
}
