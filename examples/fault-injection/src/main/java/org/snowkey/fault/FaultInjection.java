package org.snowkey.fault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Runs the fault injection scenarios and writes the report.
 *
 * <p>System properties:
 * <ul>
 *   <li>{@code snowkey.fault.seed}: the schedule's seed (default: random, printed);</li>
 *   <li>{@code snowkey.fault.profile}: {@code ci} (default, about 60 s of faults per scenario) or {@code soak};</li>
 *   <li>{@code snowkey.fault.duration}: seconds of faults per scenario (overrides the profile: ci 40 ZooKeeper, 30 PostgreSQL,
 *       25 etcd; soak 600);</li>
 *   <li>{@code snowkey.fault.scenarios}: any of {@code zookeeper,jdbc,etcd,segment-zookeeper,segment-jdbc,segment-etcd,holdings-zookeeper,
 *       holdings-jdbc,holdings-etcd} (default all but {@code holdings-jdbc} and {@code holdings-etcd}; the segment scenarios are
 *       {@link SegmentFaultExperiment}, ci 12 s of faults each; the holdings scenarios are {@link HoldingsExperiment}, one SIGKILL of a
 *       generator on several worker ids, half a minute or so);</li>
 *   <li>{@code snowkey.fault.dir}: where the files go (default {@code target/fault-injection});</li>
 *   <li>{@code snowkey.fault.jdbc-url}, {@code snowkey.fault.jdbc-username}: PostgreSQL (default 127.0.0.1:5432/test, postgres);</li>
 *   <li>{@code snowkey.fault.etcd}: the etcd binary (default {@code /usr/bin/etcd}, or the {@code SNOWKEY_ETCD} variable);
 *       without one the etcd scenario is skipped with a message;</li>
 *   <li>{@code snowkey.fault.libfaketime}: the library, when not in a Debian path; {@code none} runs without it (the clock
 *       faults and the clock part of the hand-over are skipped, as where it is not installed).</li>
 * </ul>
 * The report is printed and written to {@code <dir>/fault-report.txt}.
 */
public final class FaultInjection {

    /**
     * Seconds of faults in the etcd scenario's CI profile: every kind once (each kind's window is a few seconds, the
     * zombie pauses outlast a 4 s lease) and a few random picks after.
     */
    private static final long ETCD_CI_SECONDS = 25;

    private FaultInjection() {
    }

    public static void main(final String[] args) throws Exception {
        Outcome outcome = run();
        System.exit(outcome.passed() ? 0 : 1);
    }

    /** The reports of the scenarios that ran, and the messages of those skipped. */
    public record Outcome(Set<String> scenarios, List<FaultReport> reports, List<SegmentFaultReport> segmentReports, List<HoldingsReport> holdingsReports,
                          List<String> skipped, String text, Path file) {

        public boolean passed() {
            return reports.stream().allMatch(FaultReport::passed) && segmentReports.stream().allMatch(SegmentFaultReport::passed)
                    && holdingsReports.stream().allMatch(HoldingsReport::passed);
        }
    }

    public static Outcome run() throws Exception {
        String seedText = System.getProperty("snowkey.fault.seed", "");
        long seed = seedText.isBlank() ? System.nanoTime() ^ System.currentTimeMillis() : Long.parseLong(seedText.trim());
        String profile = System.getProperty("snowkey.fault.profile", "ci").trim().toLowerCase(Locale.ROOT);
        boolean soak = profile.equals("soak");
        String durationText = System.getProperty("snowkey.fault.duration", "");
        Set<String> scenarios = new HashSet<>(Arrays.asList(System.getProperty("snowkey.fault.scenarios",
                "zookeeper,jdbc,etcd,segment-zookeeper,segment-jdbc,segment-etcd,holdings-zookeeper").toLowerCase(Locale.ROOT).replace(" ", "").split(",")));
        Path dir = Path.of(System.getProperty("snowkey.fault.dir", "target/fault-injection")).toAbsolutePath();
        String jdbcUrl = System.getProperty("snowkey.fault.jdbc-url", "jdbc:postgresql://127.0.0.1:5432/test");
        String jdbcUser = System.getProperty("snowkey.fault.jdbc-username", "postgres");
        String libfaketime = FaultExperiment.findLibfaketime();
        List<String> skipped = new ArrayList<>();
        if (libfaketime == null) {
            String message = "clock faults SKIPPED (CLOCK_JUMP_BACK, CLOCK_JUMP_FORWARD, and the clock part of CLOCK_JUMP_DURING_HANDOVER): libfaketime not found "
                    + "(install Debian's faketime package: apt-get install -y faketime)";
            skipped.add(message);
            FaultExperiment.log("%s", message);
        }
        FaultExperiment.log("seed %d (repeat with -Dsnowkey.fault.seed=%d), profile %s", seed, seed, profile);
        List<FaultReport> reports = new ArrayList<>();
        if (scenarios.contains("zookeeper")) {
            long seconds = durationText.isBlank() ? (soak ? 600 : 40) : Long.parseLong(durationText.trim());
            reports.add(new FaultExperiment(new FaultExperiment.Settings(FaultExperiment.Registry.ZOOKEEPER, seed, seconds * 1000, clean(dir.resolve("zookeeper")),
                    4, 5_000, soak ? 20_000 : 5_000, libfaketime, jdbcUrl, jdbcUser)).run());
        }
        String postgres = scenarios.contains("jdbc") || scenarios.contains("segment-jdbc") || scenarios.contains("holdings-jdbc")
                ? FaultExperiment.postgresProblem(jdbcUrl, jdbcUser) : null;
        if (scenarios.contains("jdbc")) {
            String problem = postgres;
            if (problem != null) {
                String message = "JDBC scenario SKIPPED: PostgreSQL at " + jdbcUrl + " (user " + jdbcUser + ") does not answer: " + problem;
                skipped.add(message);
                FaultExperiment.log("%s", message);
            } else {
                long seconds = durationText.isBlank() ? (soak ? 600 : 30) : Long.parseLong(durationText.trim());
                reports.add(new FaultExperiment(new FaultExperiment.Settings(FaultExperiment.Registry.JDBC, seed, seconds * 1000, clean(dir.resolve("jdbc")),
                        4, 4_000, soak ? 20_000 : 5_000, libfaketime, jdbcUrl, jdbcUser)).run());
            }
        }
        if (scenarios.contains("etcd")) {
            if (EtcdServer.findBinary() == null) {
                String message = "etcd scenario SKIPPED: " + EtcdServer.missingBinaryMessage();
                skipped.add(message);
                FaultExperiment.log("%s", message);
            } else {
                long seconds = durationText.isBlank() ? (soak ? 600 : ETCD_CI_SECONDS) : Long.parseLong(durationText.trim());
                reports.add(new FaultExperiment(new FaultExperiment.Settings(FaultExperiment.Registry.ETCD, seed, seconds * 1000, clean(dir.resolve("etcd")),
                        4, 4_000, soak ? 20_000 : 5_000, libfaketime, jdbcUrl, jdbcUser)).run());
            }
        }
        List<SegmentFaultReport> segmentReports = new ArrayList<>();
        long segmentSeconds = durationText.isBlank() ? (soak ? 300 : 12) : Long.parseLong(durationText.trim());
        if (scenarios.contains("segment-zookeeper")) {
            segmentReports.add(new SegmentFaultExperiment(new SegmentFaultExperiment.Settings(FaultExperiment.Registry.ZOOKEEPER, seed, segmentSeconds * 1000,
                    clean(dir.resolve("segment-zookeeper")), 3, 2_000, jdbcUrl, jdbcUser)).run());
        }
        if (scenarios.contains("segment-jdbc")) {
            if (postgres != null) {
                String message = "segment JDBC scenario SKIPPED: PostgreSQL at " + jdbcUrl + " (user " + jdbcUser + ") does not answer: " + postgres;
                skipped.add(message);
                FaultExperiment.log("%s", message);
            } else {
                segmentReports.add(new SegmentFaultExperiment(new SegmentFaultExperiment.Settings(FaultExperiment.Registry.JDBC, seed, segmentSeconds * 1000,
                        clean(dir.resolve("segment-jdbc")), 3, 2_000, jdbcUrl, jdbcUser)).run());
            }
        }
        if (scenarios.contains("segment-etcd")) {
            if (EtcdServer.findBinary() == null) {
                String message = "segment etcd scenario SKIPPED: " + EtcdServer.missingBinaryMessage();
                skipped.add(message);
                FaultExperiment.log("%s", message);
            } else {
                segmentReports.add(new SegmentFaultExperiment(new SegmentFaultExperiment.Settings(FaultExperiment.Registry.ETCD, seed, segmentSeconds * 1000,
                        clean(dir.resolve("segment-etcd")), 3, 2_000, jdbcUrl, jdbcUser)).run());
            }
        }
        List<HoldingsReport> holdingsReports = new ArrayList<>();
        if (scenarios.contains("holdings-zookeeper")) {
            holdingsReports.add(new HoldingsExperiment(new HoldingsExperiment.Settings(FaultExperiment.Registry.ZOOKEEPER, clean(dir.resolve("holdings-zookeeper")),
                    4_000, jdbcUrl, jdbcUser)).run());
        }
        if (scenarios.contains("holdings-jdbc")) {
            if (postgres != null) {
                String message = "holdings JDBC scenario SKIPPED: PostgreSQL at " + jdbcUrl + " (user " + jdbcUser + ") does not answer: " + postgres;
                skipped.add(message);
                FaultExperiment.log("%s", message);
            } else {
                holdingsReports.add(new HoldingsExperiment(new HoldingsExperiment.Settings(FaultExperiment.Registry.JDBC, clean(dir.resolve("holdings-jdbc")),
                        4_000, jdbcUrl, jdbcUser)).run());
            }
        }
        if (scenarios.contains("holdings-etcd")) {
            if (EtcdServer.findBinary() == null) {
                String message = "holdings etcd scenario SKIPPED: " + EtcdServer.missingBinaryMessage();
                skipped.add(message);
                FaultExperiment.log("%s", message);
            } else {
                holdingsReports.add(new HoldingsExperiment(new HoldingsExperiment.Settings(FaultExperiment.Registry.ETCD, clean(dir.resolve("holdings-etcd")),
                        4_000, jdbcUrl, jdbcUser)).run());
            }
        }
        StringBuilder text = new StringBuilder("SnowKey fault injection report (profile " + profile + ", seed " + seed + ")\n");
        for (String each : skipped) {
            text.append(each).append('\n');
        }
        for (FaultReport each : reports) {
            text.append('\n').append(each.text());
        }
        for (SegmentFaultReport each : segmentReports) {
            text.append('\n').append(each.text());
        }
        for (HoldingsReport each : holdingsReports) {
            text.append('\n').append(each.text());
        }
        Files.createDirectories(dir);
        Path file = dir.resolve("fault-report.txt");
        Files.writeString(file, text);
        System.out.println(text);
        System.out.println("report written to " + file);
        return new Outcome(Set.copyOf(scenarios), reports, segmentReports, holdingsReports, skipped, text.toString(), file);
    }

    private static Path clean(final Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var walk = Files.walk(dir)) {
                for (Path each : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(each);
                }
            }
        }
        Files.createDirectories(dir);
        return dir;
    }
}
