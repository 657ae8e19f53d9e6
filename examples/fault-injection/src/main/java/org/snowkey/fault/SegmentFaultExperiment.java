package org.snowkey.fault;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.snowkey.fault.FaultExperiment.Fault;
import org.snowkey.fault.FaultExperiment.FaultKind;
import org.snowkey.fault.FaultExperiment.Registry;
import org.snowkey.lease.admin.LeaseCli;
import org.snowkey.segment.store.RangeLogEntry;
import org.snowkey.segment.store.RangeReconciliation;
import org.snowkey.segment.store.jdbc.JdbcRangeLog;
import org.snowkey.segment.store.jdbc.JdbcSegmentSettings;
import org.snowkey.segment.store.etcd.EtcdRangeLog;
import org.snowkey.segment.store.zookeeper.ZooKeeperRangeLog;
import org.snowkey.store.etcd.EtcdClient;
import org.snowkey.store.etcd.EtcdStoreSettings;
import org.snowkey.store.jdbc.JdbcTableName;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * The segment scenario: generator JVMs issue {@code SNOWKEY_SEGMENT} keys of one shared key from one
 * allocator (PostgreSQL behind the cuttable proxy, or the 3-server ZooKeeper ensemble), with small steps so that
 * ranges are allocated many times a second, while generators are SIGKILLed and restarted and the allocator goes away
 * for longer than the buffers last. Then {@link SegmentKeyChecker} checks every key against the store's range log, the
 * log is reconciled (gaps only, never an overlap), and the operations command {@code LeaseCli reconcile} must agree.
 */
public final class SegmentFaultExperiment {

    /** How the run is sized. */
    public record Settings(Registry registry, long seed, long faultMillis, Path dir, int generators, long pauseMicros, String jdbcUrl, String jdbcUser) {
    }

    /** One generator slot: successive incarnations; the monitor records when its key file grew. */
    private final class Slot {

        final int index;

        volatile Process process;

        volatile String incarnation;

        volatile Path ids;

        volatile long lastSize;

        int incarnations;

        final List<Long> growth = new CopyOnWriteArrayList<>();

        Slot(final int index) {
            this.index = index;
        }

        void start() throws IOException {
            incarnations++;
            incarnation = "s" + index + "-i" + incarnations;
            ids = settings.dir().resolve("ids-" + incarnation + ".bin");
            lastSize = 0;
            process = startGenerator(incarnation);
        }

        void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(20, TimeUnit.SECONDS);
        }

        long firstGrowthAfter(final long time) {
            for (long each : growth) {
                if (each > time) {
                    return each;
                }
            }
            return -1;
        }

        long longestGap(final long from, final long to) {
            long longest = 0;
            long previous = from;
            for (long each : growth) {
                if (each > from && each <= to) {
                    longest = Math.max(longest, each - previous);
                    previous = each;
                }
            }
            return Math.max(longest, to - previous);
        }
    }

    /** Steps of 20 to 200 keys sized for 0.5 s: at a few ten thousand keys a second, dozens of allocations a second per process. */
    static final List<String> SEQUENCE_PROPS = List.of("segment-step-min=20", "segment-step-max=200", "segment-range-lifetime-milliseconds=500",
            "segment-fetch-timeout-milliseconds=500");

    static final String JDBC_TABLE = "snowkey_fault_segment";

    static final String ZOOKEEPER_NAMESPACE = "fault-injection-segment";

    static final String ETCD_NAMESPACE = "fault-injection-segment";

    private final Settings settings;

    private final Random random;

    private final Processes processes = new Processes();

    private final List<Slot> slots = new ArrayList<>();

    private final List<Fault> faults = new ArrayList<>();

    /** The shared sequence key of this run, so runs against a long-lived store do not mix. */
    private final String key;

    /** The ZooKeeper ensemble or the proxied database the generators share. */
    private FaultStore faultStore;


    private volatile boolean monitoring = true;

    /** The ZooKeeper log's entries seen during the run, by their first number (see {@link #collectZooKeeperLog}). */
    private final java.util.concurrent.ConcurrentSkipListMap<Long, RangeLogEntry> collected = new java.util.concurrent.ConcurrentSkipListMap<>();

    public SegmentFaultExperiment(final Settings settings) {
        this.settings = settings;
        this.random = new Random(settings.seed());
        this.key = "fault_seg_" + Long.toHexString(settings.seed()) + "_" + Long.toString(System.currentTimeMillis(), 36);
    }

    /** Runs the scenario, reads and reconciles the range log, checks the files. Every process started is dead when this returns. */
    public SegmentFaultReport run() throws Exception {
        Files.createDirectories(settings.dir());
        long began = System.currentTimeMillis();
        List<RangeLogEntry> log;
        RangeReconciliation reconciliation;
        int cliStatus;
        String cliOutput;
        try {
            faultStore = FaultStore.start(settings.registry(), settings.dir(), settings.jdbcUrl(), processes, "segment: ");
            for (int i = 0; i < settings.generators(); i++) {
                Slot slot = new Slot(i);
                slots.add(slot);
                slot.start();
            }
            Thread monitor = new Thread(this::monitor, "segment-fault-monitor");
            monitor.setDaemon(true);
            monitor.start();
            if (settings.registry() == Registry.ZOOKEEPER) {
                Thread collector = new Thread(this::collectZooKeeperLog, "segment-log-collector");
                collector.setDaemon(true);
                collector.start();
            }
            awaitAllIssuing(System.currentTimeMillis(), 90_000);
            FaultExperiment.log("segment: all %d generators issue keys of '%s'; injecting faults for %d s (seed %d)", slots.size(), key, settings.faultMillis() / 1000,
                    settings.seed());
            injectFaults();
            awaitAllIssuing(System.currentTimeMillis(), 60_000);
            Thread.sleep(1_000);
            for (Slot each : slots) {
                // SIGTERM: the shutdown hook closes the scope; what is left of its ranges is a gap.
                each.process.destroy();
            }
            for (Slot each : slots) {
                if (!each.process.waitFor(20, TimeUnit.SECONDS)) {
                    each.process.destroyForcibly();
                }
            }
            log = readLog();
            reconciliation = RangeReconciliation.of(key, log.stream().map(RangeLogEntry::range).toList(), java.util.OptionalLong.empty());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            cliStatus = LeaseCli.run(cliArguments(), Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(out, true, StandardCharsets.UTF_8));
            cliOutput = out.toString(StandardCharsets.UTF_8);
        } finally {
            monitoring = false;
            processes.close();
            if (faultStore != null) {
                faultStore.close();
            }
        }
        SegmentKeyChecker.Result result = SegmentKeyChecker.check(settings.dir(), log);
        List<Integer> silent = new ArrayList<>();
        for (Fault each : faults) {
            if (each.recoveredAt() < 0) {
                silent.add(faults.indexOf(each));
            }
        }
        return new SegmentFaultReport(settings, key, System.currentTimeMillis() - began, List.copyOf(faults), result, reconciliation, cliStatus, cliOutput, silent);
    }

    private List<String> props() {
        List<String> props = new ArrayList<>(List.of("segment-key=" + key));
        props.addAll(SEQUENCE_PROPS);
        if (settings.registry() == Registry.ZOOKEEPER) {
            props.addAll(List.of("segment-allocator=zookeeper", "zookeeper-server-lists=" + faultStore.ensemble().connectString(), "zookeeper-namespace=" + ZOOKEEPER_NAMESPACE));
        } else if (settings.registry() == Registry.ETCD) {
            props.addAll(List.of("segment-allocator=etcd", "etcd-endpoints=" + faultStore.etcd().endpoint(), "etcd-namespace=" + ETCD_NAMESPACE));
        } else {
            props.addAll(List.of("segment-allocator=jdbc", "jdbc-url=" + faultStore.jdbcUrlThroughProxy(),
                    "jdbc-username=" + settings.jdbcUser(), "jdbc-table=" + JDBC_TABLE));
        }
        return props;
    }

    private Process startGenerator(final String incarnation) throws IOException {
        List<String> command = Processes.javaCommand("-Xmx128m", "-Dorg.slf4j.simpleLogger.showDateTime=true", SegmentGeneratorProcess.class.getName(),
                settings.dir().toString(), incarnation, String.valueOf(settings.faultMillis() / 1000 + 300), String.valueOf(settings.pauseMicros()));
        command.addAll(props());
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.redirectErrorStream(true).redirectOutput(settings.dir().resolve("log-" + incarnation + ".txt").toFile());
        return processes.start(builder);
    }

    private void monitor() {
        while (monitoring) {
            long now = System.currentTimeMillis();
            for (Slot each : slots) {
                try {
                    Path file = each.ids;
                    long size = Files.exists(file) ? Files.size(file) : 0;
                    if (size > each.lastSize) {
                        each.lastSize = size;
                        each.growth.add(now);
                    }
                } catch (final IOException ignored) {
                    // Next sample.
                }
            }
            try {
                Thread.sleep(50);
            } catch (final InterruptedException ex) {
                return;
            }
        }
    }

    /** The faults of the scenario: every one once in a seeded order, then seeded picks until the time is up. */
    static List<FaultKind> kinds(final Registry registry) {
        List<FaultKind> kinds = new ArrayList<>(List.of(FaultKind.GENERATOR_SIGKILL, FaultKind.GENERATOR_SIGKILL_DURING_OUTAGE, switch (registry) {
            case ZOOKEEPER -> FaultKind.QUORUM_LOSS;
            case ETCD -> FaultKind.ETCD_SERVER_RESTART;
            case JDBC -> FaultKind.DB_PARTITION;
        }));
        if (registry == Registry.ZOOKEEPER) {
            kinds.add(FaultKind.ZK_SERVER_RESTART);
        }
        return kinds;
    }

    private void injectFaults() throws Exception {
        long end = System.currentTimeMillis() + settings.faultMillis();
        List<FaultKind> kinds = kinds(settings.registry());
        List<FaultKind> first = new ArrayList<>(kinds);
        Collections.shuffle(first, random);
        int next = 0;
        while (next < first.size() || System.currentTimeMillis() < end) {
            FaultKind kind = next < first.size() ? first.get(next++) : kinds.get(random.nextInt(kinds.size()));
            Fault fault = inject(kind);
            awaitAllIssuing(fault.end(), 60_000);
            Fault measured = measure(fault);
            faults.add(measured);
            FaultExperiment.log("segment %-32s %-50s window %5d ms, stall %5d ms, issuing again %s", kind, fault.detail(), fault.end() - fault.start(),
                    measured.stallMillis(), measured.recoveredAt() < 0 ? "NOT within 60 s" : measured.recoveryMillis() + " ms after the fault ended");
            Thread.sleep(300 + random.nextInt(700));
        }
    }

    private Fault inject(final FaultKind kind) throws Exception {
        long start = System.currentTimeMillis();
        switch (kind) {
            case GENERATOR_SIGKILL: {
                Slot victim = slots.get(random.nextInt(slots.size()));
                String old = victim.incarnation;
                victim.kill();
                victim.start();
                return fault(kind, "SIGKILL " + old + ", started " + victim.incarnation, start, System.currentTimeMillis(), List.of(victim));
            }
            case GENERATOR_SIGKILL_DURING_OUTAGE: {
                // Long enough for the restarted process's first fetch to time out, so its first calls fail.
                long down = 1_500 + random.nextInt(1_500);
                Slot victim = slots.get(random.nextInt(slots.size()));
                String store = faultStore.down(random);
                String old = victim.incarnation;
                victim.kill();
                victim.start();
                Thread.sleep(Math.max(0, start + down - System.currentTimeMillis()));
                faultStore.back();
                return fault(kind, store + " " + down + " ms; SIGKILL " + old + ", started " + victim.incarnation + " during it", start, System.currentTimeMillis(), slots);
            }
            case ETCD_SERVER_RESTART:
            case QUORUM_LOSS:
            case DB_PARTITION: {
                // Longer than the buffers last at these steps and rates, and than segment-fetch-timeout-milliseconds: calls fail, then recover.
                long down = 1_000 + random.nextInt(2_500);
                String store = faultStore.down(random);
                Thread.sleep(down);
                faultStore.back();
                return fault(kind, store + " for " + down + " ms", start, System.currentTimeMillis(), slots);
            }
            case ZK_SERVER_RESTART: {
                int server = random.nextInt(ZooKeeperEnsemble.SIZE);
                long down = 500 + random.nextInt(2_000);
                faultStore.ensemble().kill(server);
                Thread.sleep(down);
                faultStore.ensemble().start(server);
                faultStore.ensemble().awaitQuorum(30_000);
                return fault(kind, "server " + (server + 1) + " down " + down + " ms", start, System.currentTimeMillis(), slots);
            }
            default:
                throw new IllegalArgumentException("not a segment fault: " + kind);
        }
    }

    private static Fault fault(final FaultKind kind, final String detail, final long start, final long end, final List<Slot> affected) {
        return new Fault(kind, detail, start, end, affected.stream().map(each -> each.index).toList(), -1, -1);
    }

    private Fault measure(final Fault fault) {
        long recovered = 0;
        long stall = 0;
        for (int index : fault.affected()) {
            Slot slot = slots.get(index);
            long after = slot.firstGrowthAfter(fault.end());
            if (after < 0) {
                return new Fault(fault.kind(), fault.detail(), fault.start(), fault.end(), fault.affected(), -1, -1);
            }
            recovered = Math.max(recovered, after);
            stall = Math.max(stall, slot.longestGap(fault.start(), after));
        }
        return new Fault(fault.kind(), fault.detail(), fault.start(), fault.end(), fault.affected(), recovered, stall);
    }

    private void awaitAllIssuing(final long since, final long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < deadline) {
            if (slots.stream().allMatch(each -> each.firstGrowthAfter(since) > 0)) {
                return;
            }
            Thread.sleep(100);
        }
    }

    /**
     * ZooKeeper's log keeps a key's most recent 20,000 entries ({@code ZooKeeperRangeAllocator.LOG_ENTRIES_KEPT}), and
     * at these steps the generators take dozens of ranges a second each: a soak run outgrows that, and the checker,
     * reading the log at the end only, counted every key of a pruned range as "in no range the log holds for it". The
     * entries are therefore collected while the run goes (those new since the last poll, every 2 s; pruning deletes
     * 1,000 at a time beyond 20,000), keyed by their first number; a poll failing during a fault is made up by the next.
     */
    private void collectZooKeeperLog() {
        try (CuratorFramework client = CuratorFrameworkFactory.builder().connectString(faultStore.ensemble().connectString()).retryPolicy(new RetryNTimes(1, 500))
                .connectionTimeoutMs(5_000).build()) {
            client.start();
            ZooKeeperRangeLog zooKeeperLog = new ZooKeeperRangeLog(client, ZOOKEEPER_NAMESPACE);
            String logPath = "/" + ZOOKEEPER_NAMESPACE + "/snowkey/segment-log/" + key;
            java.util.Set<String> seen = new java.util.HashSet<>();
            while (monitoring) {
                try {
                    // Reads only the entries new since the last poll (plus a margin for those created meanwhile): reading
                    // thousands of nodes every poll loads the ensemble the faults are about.
                    List<String> names = client.getChildren().forPath(logPath);
                    long unseen = names.stream().filter(each -> !seen.contains(each)).count();
                    if (unseen > 0) {
                        for (RangeLogEntry each : zooKeeperLog.recent(key, (int) Math.min(25_000, unseen + 200))) {
                            collected.put(each.range().first(), each);
                        }
                        seen.clear();
                        seen.addAll(names);
                    }
                } catch (final InterruptedException ex) {
                    throw ex;
                } catch (final Exception ex) {
                    // The ensemble is away (a fault): the next poll catches up.
                }
                Thread.sleep(2_000);
            }
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** Every log entry of the run's key, read from the store directly (not through the proxy), before the store goes. */
    private List<RangeLogEntry> readLog() throws Exception {
        if (settings.registry() == Registry.ZOOKEEPER) {
            try (CuratorFramework client = CuratorFrameworkFactory.builder().connectString(faultStore.ensemble().connectString()).retryPolicy(new RetryNTimes(3, 500))
                    .connectionTimeoutMs(15_000).build()) {
                client.start();
                for (RangeLogEntry each : new ZooKeeperRangeLog(client, ZOOKEEPER_NAMESPACE).recent(key, Integer.MAX_VALUE)) {
                    collected.put(each.range().first(), each);
                }
            }
            return new ArrayList<>(collected.values());
        }
        if (settings.registry() == Registry.ETCD) {
            // etcd keeps every entry of the log (no pruning): one read at the end sees them all.
            try (EtcdClient client = new EtcdClient(EtcdStoreSettings.plain(List.of(java.net.URI.create(faultStore.etcd().endpoint())), ETCD_NAMESPACE, 10_000))) {
                return new EtcdRangeLog(client).recent(key, Integer.MAX_VALUE);
            }
        }
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(settings.jdbcUrl());
        config.setUsername(settings.jdbcUser());
        config.setMaximumPoolSize(1);
        try (HikariDataSource pool = new HikariDataSource(config)) {
            return new JdbcRangeLog(pool, new JdbcSegmentSettings(new JdbcTableName(JDBC_TABLE), false, 10_000L, settings.jdbcUrl())).recent(key, Integer.MAX_VALUE);
        }
    }

    /** {@code LeaseCli ... reconcile --key K}, as an operator would run it against the same store. */
    private String[] cliArguments() {
        if (settings.registry() == Registry.ETCD) {
            return new String[] {"--registry", "etcd", "--endpoints", faultStore.etcd().endpoint(), "--namespace", ETCD_NAMESPACE, "reconcile", "--key", key,
                "--limit", String.valueOf(Integer.MAX_VALUE)};
        }
        if (settings.registry() == Registry.ZOOKEEPER) {
            return new String[] {"--registry", "zookeeper", "--servers", faultStore.ensemble().connectString(), "--namespace", ZOOKEEPER_NAMESPACE, "reconcile", "--key", key,
                "--limit", String.valueOf(Integer.MAX_VALUE)};
        }
        return new String[] {"--registry", "jdbc", "--url", settings.jdbcUrl(), "--username", settings.jdbcUser(), "--table", JDBC_TABLE, "reconcile", "--key", key,
            "--limit", String.valueOf(Integer.MAX_VALUE)};
    }
}
