package org.snowkey.lease.store.jdbc.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs one scenario against a fresh database once without faults, to learn every call site it uses and how often,
 * then once for each (call site, occurrence, fault) with that one fault armed. The scenario checks its own
 * invariants and throws when one breaks; the sweep names the fault that broke it.
 */
public final class FaultSweep {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    private final String name;

    private final int occurrencesPerSite;

    /**
     * @param name               prefix of the in-memory databases
     * @param occurrencesPerSite how many first calls of each site are broken, each in a run of its own
     */
    public FaultSweep(final String name, final int occurrencesPerSite) {
        this.name = name;
        this.occurrencesPerSite = occurrencesPerSite;
    }

    /** One run of a scenario: the URL (of this driver) of a fresh, empty database and the plan armed for it. */
    public record Run(String url, FaultPlan plan, String fault) {
    }

    /**
     * @return the faults injected (site, occurrence, kind), one per run, for the caller to assert on
     * @throws AssertionError naming the fault, when the scenario failed under it
     */
    public List<String> sweep(final Consumer<Run> scenario) {
        Run clean = fresh("none");
        scenario.accept(clean);
        Map<String, Integer> sites = clean.plan().sites();
        if (sites.isEmpty()) {
            throw new AssertionError("the scenario used no store call");
        }
        List<String> injected = new ArrayList<>();
        sites.forEach((site, count) -> {
            for (int occurrence = 1; occurrence <= Math.min(count, occurrencesPerSite); occurrence++) {
                for (StoreFault fault : StoreFault.values()) {
                    String description = fault + " at call " + occurrence + " of [" + site + "]";
                    Run run = fresh(description);
                    run.plan().arm(site, occurrence, fault);
                    try {
                        scenario.accept(run);
                    } catch (final RuntimeException | AssertionError ex) {
                        throw new AssertionError("under " + description + ": " + ex.getMessage(), ex);
                    }
                    if (run.plan().fired()) {
                        injected.add(description);
                    }
                }
            }
        });
        return injected;
    }

    private Run fresh(final String fault) {
        String url = FaultInjectingDriver.wrap("jdbc:h2:mem:" + name + "_" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false");
        return new Run(url, FaultInjectingDriver.plan(url), fault);
    }
}
