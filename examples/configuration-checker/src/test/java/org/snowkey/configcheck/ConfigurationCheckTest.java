package org.snowkey.configcheck;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/**
 * The configuration-level checker (docs/configuration-checker.md): seeded random deployments, keys through the real
 * SPI objects and beans, no key twice in any id space the configuration declares, every started key generator issues
 * again once the faults stop.
 *
 * <p>System properties ({@code snowkey.config-check.*}): {@code deployments} (the pom: 10000; {@code -Pconfig-check-soak}
 * 200000) from {@code first-seed}; {@code seed} replays one deployment with its trace; {@code without} leaves out
 * known-problem scenarios ({@link Scenario}); {@code survey=true} goes on after a failure and lists the first seed per kind.
 */
class ConfigurationCheckTest {

    private static final String PREFIX = "snowkey.config-check.";

    @Test
    void noDeploymentIssuesAKeyTwiceInAnIdSpace() throws Exception {
        Set<Scenario> scenarios = Scenario.allBut(System.getProperty(PREFIX + "without"));
        String replay = System.getProperty(PREFIX + "seed");
        try (SharedStores stores = new SharedStores()) {
            if (replay != null && !replay.isBlank()) {
                replayOne(Long.parseLong(replay.trim()), scenarios, stores);
                return;
            }
            runMany(scenarios, stores);
        }
    }

    private static void replayOne(final long seed, final Set<Scenario> scenarios, final SharedStores stores) {
        Deployment deployment = new Deployment(seed, scenarios, stores);
        String failure = deployment.run();
        System.out.println(deployment.describe());
        if (failure != null) {
            fail("seed " + seed + " failed: " + failure + "\n" + deployment.describe());
        }
        System.out.println("seed " + seed + " passed: " + deployment.stats());
    }

    /**
     * Runs the deployments on several threads: a deployment waits for its stores' threads (connections added by a
     * pool's own thread, ranges fetched on the fetch thread, pools shut down), so eight in parallel keep two cores
     * busier than four. Each deployment is single-threaded and drawn from its seed alone.
     */
    private static void runMany(final Set<Scenario> scenarios, final SharedStores stores) throws Exception {
        long count = Long.getLong(PREFIX + "deployments", 10_000L);
        long first = Long.getLong(PREFIX + "first-seed", 1L);
        int threads = Integer.getInteger(PREFIX + "threads", 8);
        boolean survey = Boolean.getBoolean(PREFIX + "survey");
        DeploymentStats total = new DeploymentStats();
        Map<String, String> firstSeedByKind = new TreeMap<>();
        Map<Long, String> failures = new TreeMap<>();
        AtomicLong next = new AtomicLong(first);
        AtomicLong ran = new AtomicLong();
        long started = System.nanoTime();
        long startedCpu = processCpuNanos();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(pool.submit(() -> {
                long seed;
                while ((seed = next.getAndIncrement()) < first + count) {
                    synchronized (failures) {
                        if (!survey && !failures.isEmpty()) {
                            return null;
                        }
                    }
                    Deployment deployment = new Deployment(seed, scenarios, stores);
                    String failure = deployment.run();
                    ran.incrementAndGet();
                    synchronized (failures) {
                        total.add(deployment.stats());
                        if (failure != null) {
                            firstSeedByKind.merge(kind(failure), "seed " + seed + ": " + failure, (old, add) -> old);
                            failures.put(seed, "seed " + seed + ": " + failure + "\n" + deployment.describe());
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> each : workers) {
            each.get();
        }
        pool.shutdown();
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        long cpuSeconds = TimeUnit.NANOSECONDS.toSeconds(processCpuNanos() - startedCpu);
        System.out.println("SnowKey configuration check: " + ran.get() + " deployments (seeds from " + first + ") in " + seconds + " s on " + threads
                + " threads (" + cpuSeconds + " s of CPU), " + total + "; scenarios on: " + scenarios.stream().map(Scenario::label).toList());
        firstSeedByKind.forEach((kind, report) -> System.out.println("  FAILURE " + kind + ": " + report));
        if (survey) {
            failures.keySet().forEach(seed -> System.out.println("  failing seed " + seed));
        }
        String report = failures.isEmpty() ? null : failures.values().iterator().next();
        assertTrue(report == null, () -> "the configuration check found a duplicate or a stuck key generator, " + report
                + "\nreplay with: mvn -B -pl examples/configuration-checker -am verify -Dtest=ConfigurationCheckTest -Dsurefire.failIfNoSpecifiedTests=false -D"
                + PREFIX + "seed=<seed> (and the same -D" + PREFIX + "without)");
    }

    /** The CPU time this JVM used so far (every thread): on a shared machine it says more about the cost than the wall time. */
    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : 0L;
    }

    /** The id space's kind, without the deployment's names: "table", "key generator", "sequence", or liveness. */
    private static String kind(final String failure) {
        if (failure.contains(" issues no key ")) {
            return "liveness";
        }
        int quote = failure.indexOf('\'');
        if (quote < 0) {
            return "liveness";
        }
        String space = failure.substring(quote + 1, failure.indexOf('\'', quote + 1));
        return space.startsWith("table") ? "table" : space.startsWith("sequence") ? "sequence" : space.contains(", table") ? "key generator table" : "key generator";
    }
}
