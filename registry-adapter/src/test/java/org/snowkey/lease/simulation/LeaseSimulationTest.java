package org.snowkey.lease.simulation;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Deterministic simulation of the lease protocol (docs/reliability.md, "Reliability";
 * registry-adapter/docs/lease-safety.md, "The simulator"): many seeded schedules of the production lease, acquirer and generator on virtual clocks, a
 * virtual scheduler and a faulty in-memory store.
 *
 * <p>System properties:
 * <ul>
 *   <li>{@code snowkey.simulation.schedules} (the pom runs 50000, {@code -Psoak} 200000, {@code -Psimulation-soak} 5000000): how many seeds to run, from {@code snowkey.simulation.first-seed} (default 1);</li>
 *   <li>{@code snowkey.simulation.steps} (the pom: 60; soak: 120): steps per schedule;</li>
 *   <li>{@code snowkey.simulation.seed}: replay one seed with its trace;</li>
 *   <li>{@code snowkey.simulation.survey=true}: do not stop at the first failure, list the first seed of each kind.</li>
 * </ul>
 * It runs in its own surefire execution, with SnowKey's logging off (see the module's pom).
 */
class LeaseSimulationTest {

    private static final String PREFIX = "snowkey.simulation.";

    @Test
    void everyScheduleKeepsTheInvariants() throws Exception {
        assumeTrue(Boolean.getBoolean(PREFIX + "enabled"), "the simulator runs in the 'simulation' surefire execution");
        Path checkpoints = checkpointRoot();
        try {
            String replay = System.getProperty(PREFIX + "seed");
            if (replay != null && !replay.isBlank()) {
                replayOne(Long.parseLong(replay.trim()), checkpoints);
                return;
            }
            runMany(checkpoints);
        } finally {
            deleteTree(checkpoints);
        }
    }

    private static void replayOne(final long seed, final Path checkpoints) {
        SimSchedule schedule = new SimSchedule(seed, steps(), checkpoints.resolve(Long.toString(seed)), true);
        try {
            SimStats stats = schedule.run();
            System.out.println("seed " + seed + " passed: " + stats + "\n" + schedule.trace());
        } catch (final RuntimeException ex) {
            throw new AssertionError("seed " + seed + " failed: " + ex.getMessage() + "\ntrace:\n" + schedule.trace(), ex);
        }
    }

    private static void runMany(final Path checkpoints) throws Exception {
        long schedules = Long.getLong(PREFIX + "schedules", 100_000L);
        long firstSeed = Long.getLong(PREFIX + "first-seed", 1L);
        boolean survey = Boolean.getBoolean(PREFIX + "survey");
        int threads = Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors()));
        AtomicLong next = new AtomicLong(firstSeed);
        AtomicReference<String> firstFailure = new AtomicReference<>();
        Map<String, String> failuresByKind = new TreeMap<>();
        SimStats total = new SimStats();
        long started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(pool.submit(() -> {
                SimStats mine = new SimStats();
                long seed;
                while ((seed = next.getAndIncrement()) < firstSeed + schedules && (survey || firstFailure.get() == null)) {
                    Path directory = checkpoints.resolve(Long.toString(seed));
                    try {
                        mine.add(new SimSchedule(seed, steps(), directory, false).run());
                    } catch (final RuntimeException ex) {
                        String report = "seed " + seed + ": " + ex;
                        firstFailure.compareAndSet(null, report);
                        synchronized (failuresByKind) {
                            failuresByKind.merge(kind(ex), report + " (1 seed)", (old, add) -> bump(old));
                        }
                    } finally {
                        deleteTree(directory);
                    }
                }
                total.add(mine);
                return null;
            }));
        }
        for (Future<?> each : workers) {
            each.get();
        }
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.MINUTES);
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        System.out.println("SnowKey lease simulation: " + total + " in " + seconds + " s of real time (seeds " + firstSeed + " to "
                + (firstSeed + schedules - 1) + ", " + steps() + " steps each)");
        failuresByKind.forEach((kind, report) -> System.out.println("  FAILURE " + kind + ": " + report));
        assertTrue(firstFailure.get() == null, () -> "the lease simulation broke an invariant, " + firstFailure.get()
                + "\nreplay with: mvn -B -pl registry-adapter -am verify -Dtest=LeaseSimulationTest -Dsurefire.failIfNoSpecifiedTests=false -D"
                + PREFIX + "seed=<seed>");
    }

    private static String bump(final String report) {
        int open = report.lastIndexOf(" (");
        long count = Long.parseLong(report.substring(open + 2, report.indexOf(' ', open + 2))) + 1;
        return report.substring(0, open) + " (" + count + " seeds)";
    }

    /** Groups failures by the invariant they broke, for the survey. */
    private static String kind(final RuntimeException ex) {
        String message = String.valueOf(ex.getMessage());
        String[] kinds = {"issued twice", "above the reservation", "not above what the predecessor", "not below what the successor", "leaked a number",
            "stays HELD", "issue again", "went back", "does not issue on", "no longer in force", "threw"};
        for (String each : kinds) {
            if (message.contains(each)) {
                return each;
            }
        }
        return ex.getClass().getSimpleName();
    }

    private static int steps() {
        return Integer.getInteger(PREFIX + "steps", 60);
    }

    private static Path checkpointRoot() throws IOException {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, "snowkey-sim") : Files.createTempDirectory("snowkey-sim");
    }

    private static void deleteTree(final Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(each -> each.toFile().delete());
        } catch (final IOException ex) {
            // Leftover checkpoint files in a temp directory are harmless.
        }
    }
}
