package org.snowkey.lease.store.jdbc.faults;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.snowkey.lease.testing.faults.StoreFault;
import org.snowkey.lease.testing.faults.StoreFaultSweep;

/**
 * The {@link StoreFaultSweep} over JDBC: each run gets a fresh in-memory H2 database behind {@link FaultInjectingDriver}
 * and the {@link FaultPlan} of its URL.
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
        return new StoreFaultSweep<>(occurrencesPerSite, List.of(StoreFault.values()), this::fresh, Run::plan).sweep(scenario);
    }

    private Run fresh(final String fault) {
        String url = FaultInjectingDriver.wrap("jdbc:h2:mem:" + name + "_" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false");
        return new Run(url, FaultInjectingDriver.plan(url), fault);
    }
}
