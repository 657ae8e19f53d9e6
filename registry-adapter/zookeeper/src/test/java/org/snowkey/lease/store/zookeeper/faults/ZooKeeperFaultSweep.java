package org.snowkey.lease.store.zookeeper.faults;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.apache.curator.test.TestingServer;
import org.snowkey.lease.testing.faults.FaultSchedule;
import org.snowkey.lease.testing.faults.StoreFault;
import org.snowkey.lease.testing.faults.StoreFaultSweep;

/**
 * The {@link StoreFaultSweep} over ZooKeeper: each run gets a fresh namespace on one embedded server (started for the
 * sweep) and a factory of
 * {@link FaultInjectingZooKeeper} handles for every client it opens, all counting on one {@link FaultSchedule}.
 *
 * <p>How much is swept comes from system properties, so that {@code mvn -B verify} stays short and a deliberate run
 * goes further: {@code snowkey.faults.occurrences} (how many first calls of each site are broken, default given by the
 * test) and {@code snowkey.faults.kinds} (comma-separated {@link StoreFault} names, or {@code all}). By default a sweep
 * breaks each site with {@code ERROR} and {@code APPLIED_THEN_ERROR}: a {@code TIMEOUT} holds a call for the request
 * timeout (a second a run), and what it adds to an {@code ERROR} (the server never saw the call) is the time, not
 * another answer from the server.
 */
public final class ZooKeeperFaultSweep {

    private static final AtomicInteger NAMESPACES = new AtomicInteger();

    private final String name;

    private final int occurrencesPerSite;

    /**
     * @param name               prefix of the runs' namespaces
     * @param occurrencesPerSite how many first calls of each site are broken unless {@code snowkey.faults.occurrences} says otherwise
     */
    public ZooKeeperFaultSweep(final String name, final int occurrencesPerSite) {
        this.name = name;
        this.occurrencesPerSite = Integer.getInteger("snowkey.faults.occurrences", occurrencesPerSite);
    }

    /** One run of a scenario: a fresh namespace, the handles to open its clients with, and the fault armed. */
    public record Run(String serverLists, String namespace, FaultInjectingZooKeeperFactory handles, String fault) {

        public FaultSchedule schedule() {
            return handles.schedule();
        }
    }

    /**
     * @return the faults injected (kind, occurrence, site), one per run whose fault fired
     * @throws AssertionError naming the fault, when the scenario failed under it
     */
    public List<String> sweep(final Consumer<Run> scenario) {
        try (TestingServer server = new TestingServer(true)) {
            return new StoreFaultSweep<>(occurrencesPerSite, kinds(), fault -> fresh(server.getConnectString(), fault), Run::schedule).sweep(scenario);
        } catch (final RuntimeException ex) {
            throw ex;
        } catch (final Exception ex) {
            throw new IllegalStateException("the embedded ZooKeeper server of the sweep failed", ex);
        }
    }

    private static List<StoreFault> kinds() {
        String configured = System.getProperty("snowkey.faults.kinds", "").trim();
        if (configured.isEmpty()) {
            return List.of(StoreFault.ERROR, StoreFault.APPLIED_THEN_ERROR);
        }
        return "all".equals(configured) ? List.of(StoreFault.values()) : Arrays.stream(configured.split(",")).map(String::trim).map(StoreFault::valueOf).toList();
    }

    private Run fresh(final String serverLists, final String fault) {
        return new Run(serverLists, name + NAMESPACES.incrementAndGet(), new FaultInjectingZooKeeperFactory(new FaultSchedule()), fault);
    }
}
