package org.snowkey.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Target 4: the latency of one call, every call timed, sustained (fresh generator, so SnowKey's time cache is
 * empty and one call in 2^S waits for the next millisecond; a holdings contender is grown to its worker ids first and
 * its time cache spent), 1 thread, one JVM per contender.
 *
 * <p>Why not JMH's sample mode: it times one call in 2^k, chosen by the low bits of a linear congruential
 * generator, and those bits repeat with period 2^k. Every generator here runs a cycle of exactly 2^S ids per
 * millisecond (512 or 4,096), so the sampled calls keep the same phase within the cycle and either always or
 * never hit the call that waits for the next millisecond: its tail percentiles changed from run to run by three
 * orders of magnitude. Timing every call has no such bias; it adds the cost of two {@link System#nanoTime()}
 * reads to every sample, reported as the timer overhead.
 */
public final class LatencyReport {

    public static final double[] PERCENTILES = {50, 90, 99, 99.9, 99.99};

    private static final String PREFIX = "LATENCY ";

    private LatencyReport() {
    }

    /** Percentiles (ns), max and the timer overhead of one contender. */
    public record Result(String generator, double[] percentiles, long max, long timerOverhead, int samples) {
    }

    /** Measures each contender in a JVM of its own (same class path, the given JVM options). */
    public static Map<String, Result> runAll(final List<String> generators, final String[] jvmArgs, final boolean quick) throws IOException, InterruptedException {
        Map<String, Result> results = new LinkedHashMap<>();
        String java = ProcessHandle.current().info().command().orElse("java");
        for (String each : generators) {
            List<String> command = new ArrayList<>();
            command.add(java);
            command.addAll(Arrays.asList(jvmArgs));
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(LatencyReport.class.getName());
            command.add(each);
            command.add(quick ? "1" : "2");
            System.out.println("# Latency: " + each);
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    System.out.println(line);
                    if (line.startsWith(PREFIX)) {
                        results.put(each, parse(line.substring(PREFIX.length())));
                    }
                }
            }
            if (process.waitFor() != 0 || !results.containsKey(each)) {
                throw new IllegalStateException("latency measurement of " + each + " failed, exit code " + process.exitValue());
            }
        }
        return results;
    }

    private static Result parse(final String line) {
        String[] parts = line.trim().split(" ");
        double[] percentiles = new double[PERCENTILES.length];
        for (int i = 0; i < percentiles.length; i++) {
            percentiles[i] = Double.parseDouble(parts[1 + i]);
        }
        int at = 1 + PERCENTILES.length;
        return new Result(parts[0], percentiles, Long.parseLong(parts[at]), Long.parseLong(parts[at + 1]), Integer.parseInt(parts[at + 2]));
    }

    /** Child JVM: {@code LatencyReport <generator> <seconds>}; prints one line starting with {@value #PREFIX}. */
    public static void main(final String[] args) {
        RunAll.quietLogging();
        String generator = args[0];
        long seconds = args.length > 1 ? Long.parseLong(args[1]) : 2;
        int capacity = (int) Math.min(Integer.MAX_VALUE - 8, (long) (IdSource.idsPerSecondCap(generator) * seconds * 1.05) + 1_000);
        long[] samples = new long[capacity];
        // Touch the buffer before timing: a page fault per 512 samples would show up in the tail.
        Arrays.fill(samples, 1L);
        long sink = 0;
        // Warm-up: the same loop on a generator of its own, as long as the measurement.
        try (IdSource warm = IdSource.create(generator)) {
            readyForSustainedLoad(generator, warm);
            sink += measure(warm, samples, seconds);
        }
        long timerOverhead = timerOverhead();
        int count;
        try (IdSource source = IdSource.create(generator)) {
            readyForSustainedLoad(generator, source);
            count = measure(source, samples, seconds);
        }
        // Sorted in place: a copy of 2 s of a grown generator's samples (8.2M/s) would not fit the 256 MB heap beside them.
        long[] taken = samples;
        Arrays.sort(taken, 0, count);
        StringBuilder line = new StringBuilder(PREFIX).append(generator);
        for (double each : PERCENTILES) {
            line.append(' ').append(taken[(int) Math.min(count - 1, Math.ceil(each / 100 * count) - 1)]);
        }
        line.append(' ').append(taken[count - 1]).append(' ').append(timerOverhead).append(' ').append(count);
        System.out.println(line);
        if (sink == 42) {
            System.out.println();
        }
    }

    /** A holdings contender grows to its worker ids, then spends its time cache: the state of a hot generator. */
    private static void readyForSustainedLoad(final String generator, final IdSource source) {
        if (IdSource.growsHoldings(generator)) {
            HoldingsWarmUp.grow(source);
            HoldingsWarmUp.spendTimeCache(source);
        }
    }

    /** Times every call for {@code seconds} (or until the buffer is full); returns the number of samples. */
    private static int measure(final IdSource source, final long[] samples, final long seconds) {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long sum = 0;
        int count = 0;
        while (count < samples.length) {
            long start = System.nanoTime();
            sum += source.nextId();
            long stop = System.nanoTime();
            samples[count++] = stop - start;
            if (stop - end > 0) {
                break;
            }
        }
        if (sum == 42) {
            System.out.println();
        }
        return count;
    }

    /** The median of two back-to-back nanoTime reads: what every sample includes beyond the call. */
    private static long timerOverhead() {
        long[] overhead = new long[1_000_001];
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < overhead.length; i++) {
                long start = System.nanoTime();
                overhead[i] = System.nanoTime() - start;
            }
        }
        Arrays.sort(overhead);
        return overhead[overhead.length / 2];
    }

    static String format(final Result result) {
        StringBuilder out = new StringBuilder();
        for (double each : result.percentiles()) {
            out.append(String.format(Locale.ROOT, " %,.0f |", each));
        }
        out.append(String.format(Locale.ROOT, " %,d | %d |", result.max(), result.timerOverhead()));
        return out.toString();
    }
}
