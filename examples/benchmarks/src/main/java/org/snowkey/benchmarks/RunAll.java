package org.snowkey.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Statistics;

/**
 * Runs the whole comparison (JMH through its Runner API, then the balance report) and prints a summary with
 * the ratios against the targets (the {@code *_TARGET} constants):
 *
 * <pre>
 * java -jar examples/benchmarks/target/snowkey-benchmarks.jar [--quick] [--segment-only] [--out=FILE]
 * </pre>
 *
 * {@code --quick} shortens every phase (a smoke run, numbers not fit to publish); {@code --segment-only} runs only
 * the segment-mode comparison (section 6, about a minute); {@code --out} also writes the
 * summary as markdown to a file. The plain JMH entry point stays available:
 * {@code java -cp snowkey-benchmarks.jar org.openjdk.jmh.Main -h}.
 */
public final class RunAll {

    /**
     * A fixed, pre-touched heap. On the Firecracker VMs these numbers come from, the first touch of a memory page
     * costs so much that a JVM allocating fresh heap runs at about 3 million small objects per second instead of
     * 150 million; pre-touching (as production JVMs often do) measures the generators, not the hypervisor. It
     * matters for the contenders that allocate per call (ShardingSphere's LinkedList, the SPI's singletonList and
     * Long), and JMH's GC between iterations empties the young generation before every single shot.
     */
    private static final String[] JVM_ARGS = {"-Xms256m", "-Xmx256m", "-XX:+AlwaysPreTouch", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"};

    private static final double PER_CALL_TARGET = 0.95;

    private static final double BURST_TARGET = 20;

    private static final double BATCH_TARGET = 20;

    private static final double PARITY_TARGET = 1.01;

    /** SnowKey's SegmentSequence issues single keys at least as fast as CosId's SegmentChainId in the same run. */
    private static final double SEGMENT_TARGET = 1.0;

    /** One key through the SPI at least half the core's rate. */
    private static final double SEGMENT_SPI_TARGET = 0.5;

    /**
     * A batch of 1,000 through the SPI is one atomic step, not one per key. Taking it (keys not read) is
     * counted in uncontended getAndAdd steps measured in the same run: about 1 plus the batch object for one step, at
     * least 1,000 for a step per key; 10 leaves room for noise (SegmentSpiBatchTest shows, without timing, that each batch
     * is one contiguous slice while another thread races).
     */
    private static final double SEGMENT_BATCH_STEPS_TARGET = 10;

    private static final Map<String, String> LABELS = new LinkedHashMap<>();

    static {
        LABELS.put(IdSource.SNOWKEY_SPI_13, "SnowKey IMPROVED_SNOWFLAKE, SPI generateKeys, worker-id-bits 13 (default)");
        LABELS.put(IdSource.SNOWKEY_CORE_13, "SnowKey core SequenceStream, worker-id-bits 13 (default)");
        LABELS.put(IdSource.SNOWKEY_SPI_10, "SnowKey IMPROVED_SNOWFLAKE, SPI generateKeys, worker-id-bits 10");
        LABELS.put(IdSource.SNOWKEY_CORE_10, "SnowKey core SequenceStream, worker-id-bits 10");
        LABELS.put(IdSource.SS_SNOWFLAKE, "ShardingSphere 5.5.2 SNOWFLAKE, generateKeys");
        LABELS.put(IdSource.COSID, "CosId 2.13.3 MillisecondSnowflakeId");
        LABELS.put(IdSource.HUTOOL, "Hutool 5.8.44 Snowflake");
        LABELS.put(IdSource.SNOWKEY_SPI_HOLDINGS_13, "SnowKey IMPROVED_SNOWFLAKE, SPI generateKeys, worker-id-bits 13 (default), holdings (default: up to "
                + IdSource.MAX_HOLDINGS + " worker ids, in-memory pool lease)");
        LABELS.put(IdSource.SNOWKEY_CORE_HOLDINGS_13, "SnowKey core SequenceStream, worker-id-bits 13 (default), holdings (up to " + IdSource.MAX_HOLDINGS
                + " worker ids, in-memory pool lease)");
    }

    private final boolean quick;

    private final boolean segmentOnly;

    private RunAll(final boolean quick, final boolean segmentOnly) {
        this.quick = quick;
        this.segmentOnly = segmentOnly;
    }

    public static void main(final String[] args) throws RunnerException, IOException, InterruptedException {
        quietLogging();
        boolean quick = false;
        boolean segmentOnly = false;
        Path out = null;
        for (String each : args) {
            if ("--quick".equals(each)) {
                quick = true;
            } else if ("--segment-only".equals(each)) {
                segmentOnly = true;
            } else if (each.startsWith("--out=")) {
                out = Path.of(each.substring("--out=".length()));
            } else {
                System.err.println("usage: java -jar snowkey-benchmarks.jar [--quick] [--segment-only] [--out=FILE]");
                System.exit(2);
            }
        }
        Instant started = Instant.now();
        String summary = new RunAll(quick, segmentOnly).run(started);
        System.out.println();
        System.out.println(summary);
        if (out != null) {
            Files.writeString(out, summary, StandardCharsets.UTF_8);
            System.out.println("summary written to " + out.toAbsolutePath());
        }
    }

    /** SnowKey logs one INFO line per generator it creates; the balance report here creates a few. */
    static void quietLogging() {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
    }

    private ChainedOptionsBuilder base(final String include) {
        return new OptionsBuilder().include(include).forks(1).jvmArgsAppend(JVM_ARGS).shouldDoGC(true).shouldFailOnError(true);
    }

    private ChainedOptionsBuilder timed(final String include, final int warmupSeconds, final int measureIterations, final int measureSeconds) {
        return base(include)
                .warmupIterations(quick ? 1 : 2).warmupTime(TimeValue.seconds(quick ? 1 : warmupSeconds))
                .measurementIterations(quick ? 1 : measureIterations).measurementTime(TimeValue.seconds(quick ? 1 : measureSeconds));
    }

    private String run(final Instant started) throws RunnerException, IOException, InterruptedException {
        if (segmentOnly) {
            String segment = runSegment();
            return header(started, Instant.now()) + segment;
        }
        Collection<RunResult> perCall1 = new Runner(timed(PerCallBenchmark.class.getName() + ".nextId$", 1, 3, 2).threads(1).build()).run();
        Collection<RunResult> perCall2 = new Runner(timed(PerCallBenchmark.class.getName() + ".nextId$", 1, 3, 2).threads(2).build()).run();
        // Right before the bursts, in the same conditions: the machine's speed, which every burst from the time cache moves with.
        Collection<RunResult> reference = new Runner(base(MachineReference.class.getName() + ".")
                .warmupIterations(quick ? 1 : 3).measurementIterations(quick ? 2 : 9).build()).run();
        // The targets compare the default layout; worker-id-bits 10 would add four forks of 2 s idle shots.
        Collection<RunResult> bursts = new Runner(base(BurstBenchmark.class.getName() + ".")
                .param("generator", IdSource.SNOWKEY_SPI_HOLDINGS_13, IdSource.SNOWKEY_SPI_13, IdSource.SNOWKEY_CORE_13, IdSource.SS_SNOWFLAKE, IdSource.COSID,
                        IdSource.HUTOOL)
                // Nine measured shots: on a shared VM a shot runs up to 1.5x slower when a neighbour loads the core, so five
                // left the median to chance.
                .warmupIterations(quick ? 1 : 3).measurementIterations(quick ? 2 : 9).build()).run();
        Collection<RunResult> sustained = new Runner(timed(SustainedBatchBenchmark.class.getName() + ".", 1, 3, 1).build()).run();
        Map<String, LatencyReport.Result> latency = LatencyReport.runAll(IdSource.LATENCY, JVM_ARGS, quick);
        System.out.println();
        System.out.println("# Balance: one id per millisecond, " + (quick ? 1_000 : BalanceReport.IDS_PER_WINDOW) + " ids per window");
        List<BalanceReport.Row> balance = BalanceReport.run(quick ? 1_000 : BalanceReport.IDS_PER_WINDOW, 2);
        String segment = runSegment();
        Instant finished = Instant.now();
        return summary(started, finished, perCall1, perCall2, latency, reference.iterator().next(), bursts, sustained, balance) + segment;
    }

    /** Section 6: the segment sequences side by side, then round trips and runway at the default settings. */
    private String runSegment() throws RunnerException {
        Collection<RunResult> results = new Runner(timed(SegmentBenchmark.class.getName() + ".", 1, 3, 2).build()).run();
        Collection<RunResult> steps = new Runner(timed(SegmentStepCost.class.getName() + ".", 1, 3, 2).build()).run();
        Map<String, RunResult> single = byGenerator(results, ".nextId");
        Map<String, RunResult> batch = byGenerator(results, ".batch");
        StringBuilder out = new StringBuilder();
        double core = score(single.get(SegmentSource.SNOWKEY_SEGMENT));
        double spi = score(single.get(SegmentSource.SNOWKEY_SEGMENT_SPI));
        double ratio = core / score(single.get(SegmentSource.COSID_SEGMENT_CHAIN));
        // ns to take a batch of 1,000 through the SPI (keys not read), in ns of one uncontended atomic step.
        double stepNanos = Double.NaN;
        double takeNanos = Double.NaN;
        for (RunResult each : steps) {
            if (each.getParams().getBenchmark().endsWith(".getAndAdd")) {
                stepNanos = 1e9 / score(each);
            } else if (each.getParams().getBenchmark().endsWith(".spiBatchTakeOnly")) {
                takeNanos = 1e9 / score(each);
            }
        }
        double batchSteps = takeNanos / stepNanos;
        out.append("\n### 6. Segment mode: one thread, in-memory allocators, ranges of ")
                .append(String.format(Locale.ROOT, "%,d", SegmentSource.STEP)).append(" keys\n\n");
        out.append("| target | measured | result |\n|---|---:|---|\n");
        out.append(String.format(Locale.ROOT, "| segment nextId(), SnowKey SegmentSequence vs CosId SegmentChainId: >= %.1fx | %.2fx | %s |%n", SEGMENT_TARGET, ratio,
                verdict(ratio >= SEGMENT_TARGET)));
        out.append(String.format(Locale.ROOT, "| one key, SPI generateKeys(ctx, 1) vs core nextId(): within 2x (>= %.1fx) | %.2fx | %s |%n", SEGMENT_SPI_TARGET, spi / core,
                verdict(spi / core >= SEGMENT_SPI_TARGET)));
        out.append(String.format(Locale.ROOT, "| taking a batch of 1,000 through the SPI (%.1f ns, keys not read) costs <= %.0f uncontended getAndAdd steps (%.2f ns "
                + "each; a step per key is >= 1,000) | %.1f steps | %s |%n%n", takeNanos, SEGMENT_BATCH_STEPS_TARGET, stepNanos, batchSteps,
                verdict(batchSteps <= SEGMENT_BATCH_STEPS_TARGET)));
        out.append("| generator | one key per call, ids/s | batches of 1,000 (keys read as Longs), ids/s | batch vs CosId |\n|---|---:|---:|---:|\n");
        double cosIdBatch = score(batch.get(SegmentSource.COSID_SEGMENT_CHAIN));
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(SegmentSource.SNOWKEY_SEGMENT, "SnowKey SegmentSequence, nextId() / nextIds(1000)");
        labels.put(SegmentSource.SNOWKEY_SEGMENT_SPI, "SnowKey SNOWKEY_SEGMENT SPI, generateKeys(ctx, 1) / generateKeys(ctx, 1000), keys iterated and unboxed");
        labels.put(SegmentSource.COSID_SEGMENT_CHAIN, "CosId 2.13.3 SegmentChainId, generate() (no batch call: a loop)");
        for (Map.Entry<String, String> each : labels.entrySet()) {
            RunResult one = single.get(each.getKey());
            RunResult many = batch.get(each.getKey());
            out.append(String.format(Locale.ROOT, "| %s | %s ± %s | %s ± %s | %.1fx |%n", each.getValue(), human(score(one)), human(error(one)),
                    human(score(many) * BurstBenchmark.BATCH), human(error(many) * BurstBenchmark.BATCH), score(many) / cosIdBatch));
        }
        out.append("\nDefault settings (steps 1,000 to 1,000,000, ranges sized for 10 s, next range fetched at 10% used), virtual time at a steady rate:\n\n");
        out.append(SegmentRoundTripReport.table(SegmentRoundTripReport.run()));
        return out.toString();
    }

    private String header(final Instant started, final Instant finished) {
        return "## SnowKey benchmark summary\n\n" + String.format(Locale.ROOT, "Run %s to %s (%d s), %d CPUs, %s %s, %s%s.%n%n", started.truncatedTo(ChronoUnit.SECONDS),
                finished.truncatedTo(ChronoUnit.SECONDS), finished.getEpochSecond() - started.getEpochSecond(), Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"), System.getProperty("os.name") + " " + System.getProperty("os.arch"),
                quick ? ", QUICK SMOKE RUN (not fit to publish)" : "");
    }

    private String summary(final Instant started, final Instant finished, final Collection<RunResult> perCall1, final Collection<RunResult> perCall2,
                           final Map<String, LatencyReport.Result> latency, final RunResult reference, final Collection<RunResult> bursts,
                           final Collection<RunResult> sustained, final List<BalanceReport.Row> balance) {
        StringBuilder out = new StringBuilder(header(started, finished));
        // Targets first.
        Map<String, RunResult> burst = byGenerator(bursts, ".burst");
        Map<String, RunResult> batch = byGenerator(bursts, ".batches");
        Map<String, RunResult> oneThread = byGenerator(perCall1, ".nextId");
        Map<String, RunResult> twoThreads = byGenerator(perCall2, ".nextId");
        double ssBurst = median(burst.get(IdSource.SS_SNOWFLAKE));
        double ssBatch = median(batch.get(IdSource.SS_SNOWFLAKE));
        out.append(String.format(Locale.ROOT, "Machine reference, ms (MachineReference: a fixed loop shaped like one id's path, 1,000,000 steps, single shot after 2 s "
                + "idle, right before the bursts): %s. A burst from the time cache runs at the CPU's speed and the clock-bound contenders do not, so "
                + "the burst ratios move with this line; the SPI burst with holdings took %.2f times the reference.%n%n", shots(reference),
                median(burst.get(IdSource.SNOWKEY_SPI_HOLDINGS_13)) / median(reference)));
        out.append("### Targets (ratios within this run)\n\n");
        out.append("| target | measured | result |\n|---|---:|---|\n");
        for (String each : List.of(IdSource.SNOWKEY_SPI_HOLDINGS_13, IdSource.SNOWKEY_SPI_13, IdSource.SNOWKEY_CORE_13)) {
            double ratio = ssBurst / median(burst.get(each));
            out.append(String.format(Locale.ROOT, "| burst of 1,000,000 after 2 s idle, %s vs SNOWFLAKE: >= %.0fx faster | %.1fx | %s |%n",
                    shortName(each), BURST_TARGET, ratio, verdict(ratio >= BURST_TARGET)));
        }
        for (String each : List.of(IdSource.SNOWKEY_SPI_HOLDINGS_13, IdSource.SNOWKEY_SPI_13, IdSource.SNOWKEY_CORE_13)) {
            double ratio = ssBatch / median(batch.get(each));
            out.append(String.format(Locale.ROOT, "| generateKeys(ctx, 1000) batches after 2 s idle, %s vs SNOWFLAKE: >= %.0fx faster | %.1fx | %s |%n",
                    shortName(each), BATCH_TARGET, ratio, verdict(ratio >= BATCH_TARGET)));
        }
        for (String each : List.of(IdSource.SNOWKEY_SPI_HOLDINGS_13, IdSource.SNOWKEY_CORE_HOLDINGS_13, IdSource.SNOWKEY_SPI_13, IdSource.SNOWKEY_CORE_13,
                IdSource.SNOWKEY_SPI_10, IdSource.SNOWKEY_CORE_10)) {
            double cap = IdSource.idsPerSecondCap(each);
            for (Map.Entry<Integer, Map<String, RunResult>> threads : Map.of(1, oneThread, 2, twoThreads).entrySet().stream()
                    .sorted(Map.Entry.comparingByKey()).toList()) {
                double ratio = score(threads.getValue().get(each)) / cap;
                out.append(String.format(Locale.ROOT, "| one id per call, %s, %d thread%s: >= %.0f%% of the cap %s ids/s | %.1f%% | %s |%n",
                        shortName(each), threads.getKey(), threads.getKey() == 1 ? "" : "s", PER_CALL_TARGET * 100, human(cap), ratio * 100,
                        verdict(ratio >= PER_CALL_TARGET)));
            }
        }
        // The targets of a hot generator with holdings at the default layout (issue "a hot stream leases more worker ids").
        String hot = IdSource.SNOWKEY_SPI_HOLDINGS_13;
        double hotOne = score(oneThread.get(hot));
        double hotTwo = score(twoThreads.get(hot));
        double hotBatches = BurstBenchmark.BATCH * 1e6 / score(byGenerator(sustained, ".batchSustained").get(hot));
        double hotBurst = ssBurst / median(burst.get(hot));
        double hotTail = latency.get(hot).percentiles()[3];
        out.append(String.format(Locale.ROOT, "| holdings, %s, one id per call, 1 thread: >= 4.1M ids/s (the peers' rate) | %s | %s |%n",
                shortName(hot), human(hotOne), verdict(hotOne >= 4.1e6)));
        out.append(String.format(Locale.ROOT, "| holdings, %s, one id per call, 2 threads: >= 8M ids/s | %s | %s |%n", shortName(hot), human(hotTwo),
                verdict(hotTwo >= 8e6)));
        out.append(String.format(Locale.ROOT, "| holdings, %s, batches of 1,000 back to back: >= 8M ids/s | %s | %s |%n", shortName(hot),
                human(hotBatches), verdict(hotBatches >= 8e6)));
        out.append(String.format(Locale.ROOT, "| holdings, %s, burst of 1,000,000 after 2 s idle: >= 25x faster than SNOWFLAKE | %.1fx | %s |%n",
                shortName(hot), hotBurst, verdict(hotBurst >= 25)));
        out.append(String.format(Locale.ROOT, "| holdings, %s, one call at sustained load, p99.9: <= 1 ms | %.0f ns | %s |%n", shortName(hot), hotTail,
                verdict(hotTail <= 1_000_000)));
        for (BalanceReport.Row each : balance) {
            if (each.contender().startsWith("SnowKey")) {
                double ratio = each.ratio(0);
                out.append(String.format(Locale.ROOT, "| id %% 2 max/min < %.2f, %s, %s | %s | %s |%n", PARITY_TARGET, each.contender(), each.window(),
                        BalanceReport.format(ratio), verdict(ratio < PARITY_TARGET)));
            }
        }

        out.append("\n### 1. One id per call, sustained (ids/s; fresh generator per iteration, so SnowKey's time cache is empty; with holdings one "
                + "generator grown before the warm-up, its time cache spent before every iteration)\n\n");
        out.append("| generator | layout cap | 1 thread | % of cap | 2 threads | % of cap |\n|---|---:|---:|---:|---:|---:|\n");
        for (String each : IdSource.SUSTAINED) {
            double cap = IdSource.idsPerSecondCap(each);
            RunResult one = oneThread.get(each);
            RunResult two = twoThreads.get(each);
            out.append(String.format(Locale.ROOT, "| %s | %s | %s ± %s | %.1f%% | %s ± %s | %.1f%% |%n", LABELS.get(each), human(cap),
                    human(score(one)), human(error(one)), score(one) / cap * 100, human(score(two)), human(error(two)), score(two) / cap * 100));
        }

        out.append("\n### 2-3. 1,000,000 ids right after 2 s idle (single shot, ms: median of the shots, then min-max; ratios of medians)\n\n");
        out.append("| generator | 1,000,000 single calls | vs SNOWFLAKE | 1,000 batches of 1,000 | vs SNOWFLAKE |\n|---|---:|---:|---:|---:|\n");
        for (String each : IdSource.SUSTAINED) {
            if (burst.containsKey(each)) {
                out.append(String.format(Locale.ROOT, "| %s | %s | %.1fx | %s | %.1fx |%n", LABELS.get(each), shots(burst.get(each)),
                        ssBurst / median(burst.get(each)), shots(batch.get(each)), ssBatch / median(batch.get(each))));
            }
        }

        Map<String, RunResult> sustainedBatch = byGenerator(sustained, ".batchSustained");
        double ssSustained = score(sustainedBatch.get(IdSource.SS_SNOWFLAKE));
        out.append("\n### 3b. Batches of 1,000 back to back, no idle time (µs per batch; every generator at its layout's cap)\n\n");
        out.append("| generator | µs per batch | ids/s | vs SNOWFLAKE |\n|---|---:|---:|---:|\n");
        for (String each : IdSource.SUSTAINED) {
            RunResult result = sustainedBatch.get(each);
            out.append(String.format(Locale.ROOT, "| %s | %.1f ± %.1f | %s | %.2fx |%n", LABELS.get(each), score(result), error(result),
                    human(BurstBenchmark.BATCH * 1e6 / score(result)), ssSustained / score(result)));
        }

        out.append("\n### 4. Latency of one call, 1 thread, sustained, every call timed (ns, including the timer overhead in the last column)\n\n");
        out.append("| generator | p50 | p90 | p99 | p99.9 | p99.99 | max | timer overhead |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String each : IdSource.LATENCY) {
            out.append("| ").append(LABELS.get(each)).append(" |").append(LatencyReport.format(latency.get(each))).append('\n');
        }
        out.append("\n### 5. Balance: max/min of the counts of id % n, one id per millisecond\n\n");
        out.append(BalanceReport.table(balance));
        return out.toString();
    }

    private static String shortName(final String generator) {
        return switch (generator) {
            case IdSource.SNOWKEY_SPI_13 -> "SnowKey SPI (W=13)";
            case IdSource.SNOWKEY_CORE_13 -> "SnowKey core (W=13)";
            case IdSource.SNOWKEY_SPI_10 -> "SnowKey SPI (W=10)";
            case IdSource.SNOWKEY_CORE_10 -> "SnowKey core (W=10)";
            case IdSource.SNOWKEY_SPI_HOLDINGS_13 -> "SnowKey SPI (W=13, holdings)";
            case IdSource.SNOWKEY_CORE_HOLDINGS_13 -> "SnowKey core (W=13, holdings)";
            default -> generator;
        };
    }

    private static String verdict(final boolean met) {
        return met ? "met" : "**MISSED**";
    }

    private static Map<String, RunResult> byGenerator(final Collection<RunResult> results, final String methodSuffix) {
        Map<String, RunResult> result = new LinkedHashMap<>();
        for (RunResult each : results) {
            if (each.getParams().getBenchmark().endsWith(methodSuffix)) {
                result.put(each.getParams().getParam("generator"), each);
            }
        }
        return result;
    }

    private static double score(final RunResult result) {
        return result == null ? Double.NaN : result.getPrimaryResult().getScore();
    }

    /** The median of a single-shot result: one shot descheduled on a shared machine does not move it. */
    private static double median(final RunResult result) {
        return result == null ? Double.NaN : result.getPrimaryResult().getStatistics().getPercentile(50);
    }

    /** "12.3 (10.1-15.2, 5 shots)". */
    private static String shots(final RunResult result) {
        if (result == null) {
            return "n/a";
        }
        Statistics stats = result.getPrimaryResult().getStatistics();
        return String.format(Locale.ROOT, "%s (%s-%s, %d shots)", ms(stats.getPercentile(50)), ms(stats.getMin()), ms(stats.getMax()), stats.getN());
    }

    private static String ms(final double value) {
        return String.format(Locale.ROOT, value < 10 ? "%.2f" : "%.1f", value);
    }

    private static double error(final RunResult result) {
        if (result == null) {
            return Double.NaN;
        }
        double error = result.getPrimaryResult().getScoreError();
        return Double.isNaN(error) ? 0 : error;
    }

    /** 512000 as "512k", 4096000 as "4.10M". */
    static String human(final double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        if (Math.abs(value) >= 1e6) {
            return String.format(Locale.ROOT, "%.2fM", value / 1e6);
        }
        if (Math.abs(value) >= 1e3) {
            return String.format(Locale.ROOT, "%.1fk", value / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f", value);
    }

    static List<String> labels() {
        return new ArrayList<>(LABELS.values());
    }
}
