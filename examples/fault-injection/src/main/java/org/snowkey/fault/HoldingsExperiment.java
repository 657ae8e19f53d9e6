package org.snowkey.fault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import org.snowkey.fault.FaultExperiment.Registry;
import org.snowkey.keygen.layout.IdLayout;

/**
 * The holdings scenario: one generator JVM issues at its cap, calls back to back, until it leases more worker ids of
 * its pool (docs/design.md, "Holdings: more worker ids for a hot generator") and issues on all of them at once; then it
 * is SIGKILLed, holdings and all, and its successor (the next incarnation, hot as well) takes the dead process's worker
 * ids over once their leases expire and grows on them. {@link IdChecker} then checks every id of every holding: no
 * duplicate, order within each incarnation, no overlapping holdings, every predecessor below its successor's floor.
 *
 * <p>The layout makes the cap small (8 ids per ms per worker id), so that a process reaches it with every call and
 * the files stay small. The pool has 4 numbers: the hot generator grows to 3 of them (a quarter stays free), a quiet
 * companion takes the last, so the successor's own lease waits for one of the dead process's numbers (its floor is
 * logged and checked) and it grows only onto the dead process's numbers.
 */
public final class HoldingsExperiment {

    /** How the run is sized. */
    public record Settings(Registry registry, Path dir, long leaseMillis, String jdbcUrl, String jdbcUser) {
    }

    /** What one incarnation reported of its holdings: the most it issued on at once and every worker id it issued on. */
    public record Incarnation(String name, int mostHoldings, Set<Integer> workerIds, long ids) {
    }

    private static final int WORKER_ID_BITS = 2;

    /** 22 - 2 sequence bits, 17 of them below the worker id: 2^3 = 8 ids per ms per worker id. */
    private static final int SEQUENCE_LOW_BITS = 17;

    /** Holdings the first incarnation reaches in a pool of 4 (1, 2, then 3: a quarter stays free). */
    private static final int FULL_GROWTH = 3;

    /** Most of the first incarnation's wait for its growth; it is killed at 2 holdings or more whatever it reached. */
    private static final long GROWTH_MILLIS = 15_000;

    private final Settings settings;

    private final Processes processes = new Processes();

    private final String pool = "holdings-" + Long.toString(System.currentTimeMillis(), 36);

    private FaultStore faultStore;

    public HoldingsExperiment(final Settings settings) {
        this.settings = settings;
    }

    /** The layout the generators issue with. */
    static IdLayout layout() {
        return IdLayout.of(WORKER_ID_BITS, SEQUENCE_LOW_BITS, Instant.parse("2025-01-01T00:00:00Z").toEpochMilli());
    }

    /** Runs the scenario, checks the files, returns the report. Every process started is dead when this returns. */
    public HoldingsReport run() throws Exception {
        Files.createDirectories(settings.dir());
        // Load the checker's classes first: other builds on this machine may re-install the SnowKey jars while a run goes on.
        IdLayout layout = layout();
        IdChecker checker = new IdChecker(layout);
        layout.decode(layout.compose(layout.counterAt(1), 1));
        long began = System.currentTimeMillis();
        String label = "[holdings " + settings.registry().name().toLowerCase(Locale.ROOT) + "] ";
        List<String> problems = new ArrayList<>();
        int atKill = 0;
        Set<Integer> killedHeld = Set.of();
        Set<Integer> takenOver = new TreeSet<>();
        long killedAt = -1;
        long takenOverAt = -1;
        try {
            faultStore = FaultStore.start(settings.registry(), settings.dir(), settings.jdbcUrl(), processes, label);
            Process first = startGenerator("h0-i1", true);
            // Grown at least once, then as far as the pool allows within a bounded wait: the kill hits as many holdings as it can.
            int[] held = awaitHoldings("h0-i1", 2, Set.of(), 60_000 + GROWTH_MILLIS);
            if (held.length >= 2 && held.length < FULL_GROWTH) {
                int[] more = awaitHoldings("h0-i1", FULL_GROWTH, Set.of(), GROWTH_MILLIS);
                held = more.length > held.length ? more : held;
            }
            atKill = held.length;
            killedHeld = toSet(held);
            if (atKill < 2) {
                problems.add("h0-i1 did not report 2 holdings within " + (60_000 + GROWTH_MILLIS) / 1000 + " s");
            }
            // The companion takes the number left free: the successor finds none but the dead process's.
            Process companion = startGenerator("c0-i1", false);
            Path companionIds = settings.dir().resolve("ids-c0-i1.bin");
            awaitFileBeyond(companionIds, 8, 60_000);
            if (!Files.exists(companionIds) || Files.size(companionIds) == 0) {
                problems.add("the companion c0-i1 issued no id within 60 s");
            }
            first.destroyForcibly();
            first.waitFor(20, TimeUnit.SECONDS);
            killedAt = System.currentTimeMillis();
            FaultExperiment.log("%sSIGKILL h0-i1 on %d holdings %s; starting its successor h0-i2", label, atKill, killedHeld);
            Process successor = startGenerator("h0-i2", true);
            // The successor's lease waits for a dead process's number to expire, and it grows onto the others.
            int[] grown = awaitHoldings("h0-i2", 2, killedHeld, 60_000);
            for (int each : grown) {
                if (killedHeld.contains(each)) {
                    takenOver.add(each);
                }
            }
            if (takenOver.isEmpty()) {
                problems.add("h0-i2 did not issue on a worker id of h0-i1 " + killedHeld + " within 60 s (holdings " + Arrays.toString(grown) + ")");
            } else {
                takenOverAt = System.currentTimeMillis();
                FaultExperiment.log("%sh0-i2 issues on %d holdings %s, %s of them h0-i1's, %d ms after the kill", label, grown.length, toSet(grown), takenOver,
                        takenOverAt - killedAt);
                // A few more ids on the numbers taken over before the graceful end.
                long size = Files.size(settings.dir().resolve("ids-h0-i2.bin"));
                awaitFileBeyond(settings.dir().resolve("ids-h0-i2.bin"), size + 8 * 10_000, 30_000);
            }
            // SIGTERM: the shutdown hook releases every holding with its exact high-water mark.
            for (Process each : List.of(successor, companion)) {
                each.destroy();
            }
            for (Process each : List.of(successor, companion)) {
                if (!each.waitFor(20, TimeUnit.SECONDS)) {
                    each.destroyForcibly();
                }
            }
        } finally {
            processes.close();
            if (faultStore != null) {
                faultStore.close();
            }
        }
        long ran = System.currentTimeMillis() - began;
        IdChecker.Result result = checker.check(settings.dir());
        Incarnation killed = incarnation("h0-i1", layout);
        Incarnation successor = incarnation("h0-i2", layout);
        // From the files: every worker id both issued on (the successor started while the dead process still held all of its).
        Set<Integer> shared = new TreeSet<>(killed.workerIds());
        shared.retainAll(successor.workerIds());
        return new HoldingsReport(settings, ran, atKill, killed.workerIds(), shared, takenOverAt < 0 ? -1 : takenOverAt - killedAt, List.of(killed, successor),
                result, problems);
    }

    /**
     * A hot generator calls back to back and may lease every number of the pool; the quiet companion pauses 2 ms after
     * every burst and keeps to its one worker id.
     */
    private Process startGenerator(final String incarnation, final boolean hot) throws IOException {
        List<String> command = Processes.javaCommand("-Xmx128m", "-Dorg.slf4j.simpleLogger.showDateTime=true",
                "-Dsnowkey.lease.checkpoint-dir=" + settings.dir().resolve("checkpoints-" + incarnation.replaceFirst("-i\\d+$", "")),
                GeneratorProcess.class.getName(), settings.dir().toString(), incarnation, "300", hot ? "0" : "2000");
        command.addAll(List.of("worker-id-bits=" + WORKER_ID_BITS, "sequence-low-bits=" + SEQUENCE_LOW_BITS, "lease-pool=" + pool,
                "lease-duration-milliseconds=" + settings.leaseMillis(), "lease-acquire-timeout-milliseconds=30000", "instance-id=" + incarnation,
                "max-worker-ids-per-instance=" + (hot ? 1 << WORKER_ID_BITS : 1)));
        command.addAll(faultStore.leaseProps(settings.jdbcUser()));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.redirectErrorStream(true).redirectOutput(settings.dir().resolve("log-" + incarnation + ".txt").toFile());
        return processes.start(builder);
    }

    /**
     * Waits until the incarnation reports at least {@code count} holdings, and when {@code including} is not empty one
     * of those worker ids among them; returns the last holdings it reported (empty for none).
     */
    private int[] awaitHoldings(final String incarnation, final int count, final Set<Integer> including, final long timeoutMillis)
            throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        int[] last = new int[0];
        while (true) {
            last = lastHoldings(incarnation);
            if (last.length >= count && (including.isEmpty() || Arrays.stream(last).anyMatch(including::contains))) {
                return last;
            }
            if (System.currentTimeMillis() >= deadline) {
                return last;
            }
            Thread.sleep(100);
        }
    }

    /** The worker ids of the incarnation's last whole {@code HOLDINGS} line. */
    private int[] lastHoldings(final String incarnation) throws IOException {
        Path events = settings.dir().resolve("events-" + incarnation + ".txt");
        int[] result = new int[0];
        if (Files.exists(events)) {
            for (String line : Files.readAllLines(events)) {
                String[] parts = line.split(" ");
                // A line being written may be cut short: only lines with the ids-written field count.
                if (parts[0].equals("HOLDINGS") && parts.length >= 5 && parts[3].matches("\\d+(,\\d+)*")) {
                    result = Arrays.stream(parts[3].split(",")).mapToInt(Integer::parseInt).toArray();
                }
            }
        }
        return result;
    }

    private static void awaitFileBeyond(final Path file, final long bytes, final long timeoutMillis) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < deadline && (!Files.exists(file) || Files.size(file) < bytes)) {
            Thread.sleep(100);
        }
    }

    private Incarnation incarnation(final String name, final IdLayout layout) throws IOException {
        Path file = settings.dir().resolve("ids-" + name + ".bin");
        long[] ids = Files.exists(file) ? IdChecker.read(file) : new long[0];
        Set<Integer> workerIds = new TreeSet<>();
        for (long each : ids) {
            workerIds.add(layout.decode(each).workerId());
        }
        int most = 0;
        Path events = settings.dir().resolve("events-" + name + ".txt");
        if (Files.exists(events)) {
            for (String line : Files.readAllLines(events)) {
                String[] parts = line.split(" ");
                if (parts[0].equals("HOLDINGS") && parts.length >= 5 && parts[2].matches("\\d+")) {
                    most = Math.max(most, Integer.parseInt(parts[2]));
                }
            }
        }
        return new Incarnation(name, most, workerIds, ids.length);
    }

    private static Set<Integer> toSet(final int[] workerIds) {
        Set<Integer> result = new TreeSet<>();
        for (int each : workerIds) {
            result.add(each);
        }
        return result;
    }
}
