package org.snowkey.segment.store.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.lease.store.jdbc.TestDatabase;
import org.snowkey.lease.testing.TestScope;
import org.snowkey.segment.store.RangeLog;
import org.snowkey.segment.store.RangeLogEntry;
import org.snowkey.segment.store.RangeReconciliation;
import org.snowkey.segment.store.jdbc.JdbcRangeLog;
import org.snowkey.segment.store.jdbc.JdbcSegmentSettings;
import org.snowkey.segment.store.zookeeper.ZooKeeperRangeLog;
import org.snowkey.store.jdbc.JdbcTableName;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * Segment mode across processes: {@value #SLOTS} JVMs ({@link SegmentWorkerProcess}) issue keys of
 * two sequence keys from one allocator (a table on H2 over TCP, PostgreSQL or MariaDB; one ZooKeeper server) with small
 * steps, so they allocate ranges all the time and race each other for them; in each of {@value #ROUNDS} rounds some
 * are killed with SIGKILL (often mid-allocation, as a fetch is nearly always in flight) and restarted. Every key any
 * incarnation wrote down is then checked: within 1..2^53 - 1, never twice, increasing per key within each incarnation
 * (a call that returned before another started holds lower keys, across threads), inside a range the log holds for
 * that very incarnation; and the range log reconciles with no overlap and no gap (a killed allocation is all or
 * nothing), while the ranges keys were issued from show the unused tails of killed processes as gaps.
 */
class SegmentProcessesTest {

    private static final int SLOTS = 3;

    private static final int THREADS = 2;

    /** Kill-and-restart rounds; round r kills r processes (so 1 + 2 = 3 SIGKILLs). */
    private static final int ROUNDS = 2;

    /** Bytes each live process writes (a line per call, about 20 bytes a key) between rounds: a few thousand keys, hundreds of ranges. */
    private static final long PROGRESS_BYTES = 40_000;

    /** How long a process may take to start and issue: generous, a JVM on two loaded cores can take seconds. */
    private static final long START_MILLIS = 60_000;

    private static final int CHILD_MAX_SECONDS = 150;

    @TempDir
    Path dir;

    private final List<Incarnation> incarnations = new ArrayList<>();

    private final Random random = new Random(13);

    @AfterEach
    void killLeftovers() {
        incarnations.forEach(each -> each.process().destroyForcibly());
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    @Timeout(180)
    void processesSharingOneTableNeverIssueAKeyTwice(final TestDatabase database) throws Exception {
        // What the processes add to the allocator's own tests is kills at any point of the same Java client. Each
        // database's transactions under racing allocators and its lost commits are its allocator contract's
        // (Jdbc*RangeAllocatorTest, every database; JdbcRangeAllocatorIsolationTest on PostgreSQL). CI kills
        // processes on H2 here and on PostgreSQL in the fault suite's segment scenario.
        if (database != TestDatabase.H2) {
            TestScope.assumeRepeatWanted(database.title(), "the segment processes kill and restart scenario",
                    "H2 and ZooKeeper (here) and PostgreSQL (examples/fault-injection, segment scenario, GENERATOR_SIGKILL)");
        }
        database.assumeAvailable();
        JdbcTableName table = TestDatabase.uniqueTable("segproc");
        JdbcSegmentSettings settings = new JdbcSegmentSettings(table, true, 10_000L, database.url());
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database.url());
        config.setUsername(database.username());
        config.setPassword(database.password());
        config.setMaximumPoolSize(2);
        try (HikariDataSource pool = new HikariDataSource(config)) {
            // H2: the in-memory database of this JVM, served to the processes by H2's TCP server.
            run(database.name(), List.of("store=jdbc", "jdbc-url=" + database.networkUrl(), "jdbc-username=" + database.username(),
                    "jdbc-password=" + database.password(), "jdbc-table=" + table.value()), new JdbcRangeLog(pool, settings));
        } finally {
            database.dropQuietly(table);
            database.dropQuietly(settings.logTable());
        }
    }

    @Test
    @Timeout(180)
    void processesSharingOneZooKeeperNeverIssueAKeyTwice() throws Exception {
        String namespace = "segproc" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (TestingServer server = new TestingServer(true);
                CuratorFramework client = CuratorFrameworkFactory.builder().connectString(server.getConnectString()).retryPolicy(new RetryOneTime(100)).build()) {
            client.start();
            run("ZOOKEEPER", List.of("store=zookeeper", "zookeeper=" + server.getConnectString(), "namespace=" + namespace), new ZooKeeperRangeLog(client, namespace));
        }
    }

    private void run(final String store, final List<String> storeArgs, final RangeLog log) throws Exception {
        Incarnation[] live = new Incarnation[SLOTS];
        for (int slot = 0; slot < SLOTS; slot++) {
            live[slot] = start(slot, storeArgs);
        }
        int kills = 0;
        for (int round = 1; round <= ROUNDS; round++) {
            for (Incarnation each : live) {
                awaitReady(each);
            }
            awaitProgress(live);
            List<Integer> slots = new ArrayList<>(List.of(0, 1, 2));
            java.util.Collections.shuffle(slots, random);
            for (int slot : slots.subList(0, round)) {
                Incarnation victim = live[slot];
                // Not a synchronisation: only varies the moment of the kill relative to the victim's fetches.
                Thread.sleep(random.nextInt(200));
                assertTrue(victim.process().isAlive(), () -> victim.name() + " died before it was killed" + logs());
                victim.process().destroyForcibly();
                assertTrue(victim.process().waitFor(30, TimeUnit.SECONDS), victim.name() + " survived SIGKILL");
                assertEquals(137, victim.process().exitValue(), () -> victim.name() + " exited by itself" + logs());
                victim.killed()[0] = true;
                kills++;
                live[slot] = start(slot, storeArgs);
            }
        }
        for (Incarnation each : live) {
            awaitReady(each);
        }
        awaitProgress(live);
        for (Incarnation each : live) {
            try (OutputStream in = each.process().getOutputStream()) {
                in.write("stop\n".getBytes(StandardCharsets.US_ASCII));
            }
        }
        for (Incarnation each : live) {
            assertTrue(each.process().waitFor(60, TimeUnit.SECONDS), () -> each.name() + " did not stop" + logs());
            assertEquals(0, each.process().exitValue(), () -> each.name() + " failed" + logs());
        }
        check(store, log, kills);
    }

    /** Every key written by every incarnation, against each other and against the range log. */
    private void check(final String store, final RangeLog log, final int kills) throws IOException {
        List<String> keys = SegmentWorkerProcess.KEYS;
        List<TreeMap<Long, RangeLogEntry>> logged = new ArrayList<>();
        int allocations = 0;
        for (String key : keys) {
            // As RangeReconciliation.ofLog reads it (the log, then the counter), without reading thousands of log entries twice.
            List<RangeLogEntry> entries = log.recent(key, Integer.MAX_VALUE);
            allocations += entries.size();
            // The store's log: no overlap, and no gap either (an allocation killed half-way is applied as a whole or not at all).
            RangeReconciliation reconciled = RangeReconciliation.of(key, entries.stream().map(RangeLogEntry::range).toList(), log.nextValue(key)).requireNoOverlap();
            assertEquals(List.of(), reconciled.gaps(), () -> "the range log of " + key + " has gaps: " + reconciled.report());
            assertEquals(SegmentWorkerProcess.STARTS.startOf(key), entries.get(0).range().first(), "the first range of " + key + " starts at its start value");
            TreeMap<Long, RangeLogEntry> byFirst = new TreeMap<>();
            entries.forEach(each -> byFirst.put(each.range().first(), each));
            logged.add(byFirst);
        }
        List<Set<Long>> seen = new ArrayList<>();
        List<Set<NumberRange>> used = new ArrayList<>();
        for (int k = 0; k < keys.size(); k++) {
            seen.add(new HashSet<>());
            used.add(new HashSet<>());
        }
        long ids = 0;
        int cutLines = 0;
        for (Incarnation incarnation : incarnations) {
            List<List<Call>> calls = new ArrayList<>();
            keys.forEach(key -> calls.add(new ArrayList<>()));
            for (int t = 0; t < THREADS; t++) {
                Path file = dir.resolve(incarnation.name() + "-t" + t + ".ids");
                if (!Files.exists(file)) {
                    continue;
                }
                String text = Files.readString(file, StandardCharsets.US_ASCII);
                int complete = text.lastIndexOf('\n') + 1;
                if (complete < text.length()) {
                    // A SIGKILL may cut the last write short: tolerated for killed incarnations, and only there, only at the end.
                    assertTrue(incarnation.killed()[0], () -> file + " ends in a cut line but " + incarnation.name() + " stopped cleanly");
                    cutLines++;
                }
                for (String line : text.substring(0, complete).split("\n")) {
                    if (line.isEmpty()) {
                        continue;
                    }
                    String[] fields = line.split(" ");
                    int k = Integer.parseInt(fields[0]);
                    long previous = 0;
                    for (int f = 3; f < fields.length; f++) {
                        long id = Long.parseLong(fields[f]);
                        String where = incarnation.name() + " thread " + t + " key " + keys.get(k) + " id " + id;
                        if (id < 1 || id > NumberRange.MAX_KEY) {
                            fail(where + " is outside 1..2^53 - 1");
                        }
                        if (id <= previous) {
                            fail(where + " is not above the id before it in its batch, " + previous);
                        }
                        previous = id;
                        if (!seen.get(k).add(id)) {
                            fail(where + " was issued twice" + owners(logged.get(k), id));
                        }
                        Map.Entry<Long, RangeLogEntry> range = logged.get(k).floorEntry(id);
                        if (range == null || range.getValue().range().last() < id || !range.getValue().owner().equals(incarnation.name())) {
                            fail(where + " is not in a range logged for " + incarnation.name() + owners(logged.get(k), id));
                        }
                        used.get(k).add(range.getValue().range());
                        ids++;
                    }
                    calls.get(k).add(new Call(Long.parseLong(fields[1]), Long.parseLong(fields[2]), Long.parseLong(fields[3]), previous, t));
                }
            }
            for (int k = 0; k < keys.size(); k++) {
                checkOrder(incarnation.name() + " key " + keys.get(k), calls.get(k));
            }
        }
        StringBuilder unused = new StringBuilder();
        for (int k = 0; k < keys.size(); k++) {
            // The ranges keys came from: gaps are the unused tails (killed processes, keys issued but not yet flushed, closed sequences).
            RangeReconciliation byIssuers = RangeReconciliation.of(keys.get(k), used.get(k), OptionalLong.empty()).requireNoOverlap();
            unused.append(' ').append(keys.get(k)).append(": ").append(used.get(k).size()).append(" of ").append(logged.get(k).size())
                    .append(" ranges used, ").append(byIssuers.gaps().size()).append(" gaps");
        }
        System.out.printf("segment processes on %s: %d incarnations (%d SIGKILL), %d ids, all distinct, in %d logged ranges; %d cut last lines;%s%n", store,
                incarnations.size(), kills, ids, allocations, cutLines, unused);
        assertEquals(SLOTS + ROUNDS * (ROUNDS + 1) / 2, incarnations.size());
        // Small steps: the processes really raced for ranges, many times.
        assertTrue(allocations > 200, "allocations: " + allocations);
    }

    /**
     * Keys increase within one process, across its threads: a call that returned before another started (its "after"
     * ticket below the other's "before" ticket) holds only lower keys. Calls that overlapped in time may be in any order.
     */
    private static void checkOrder(final String what, final List<Call> calls) {
        List<Call> byStart = new ArrayList<>(calls);
        byStart.sort(java.util.Comparator.comparingLong(Call::before));
        List<Call> byEnd = new ArrayList<>(calls);
        byEnd.sort(java.util.Comparator.comparingLong(Call::after));
        int ended = 0;
        Call highestEnded = null;
        for (Call each : byStart) {
            while (ended < byEnd.size() && byEnd.get(ended).after() < each.before()) {
                Call done = byEnd.get(ended++);
                if (highestEnded == null || done.last() > highestEnded.last()) {
                    highestEnded = done;
                }
            }
            if (highestEnded != null && each.first() <= highestEnded.last()) {
                fail(what + ": thread " + each.thread() + " got " + each.first() + ".." + each.last() + " in a call started after thread "
                        + highestEnded.thread() + " had received " + highestEnded.first() + ".." + highestEnded.last());
            }
        }
    }

    /** One call of an incarnation on one key: its tickets, its lowest and highest key, the thread that made it. */
    private record Call(long before, long after, long first, long last, int thread) {
    }

    private static String owners(final TreeMap<Long, RangeLogEntry> logged, final long id) {
        Map.Entry<Long, RangeLogEntry> range = logged.floorEntry(id);
        return " (range log around it: " + (range == null ? "nothing below" : range.getValue()) + ")";
    }

    private Incarnation start(final int slot, final List<String> storeArgs) throws IOException {
        String name = "p" + slot + "-i" + incarnations.size();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx96m", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-cp", classpath, SegmentWorkerProcess.class.getName(), "dir=" + dir, "name=" + name, "threads=" + THREADS,
                "step-min=5", "step-max=20", "max-seconds=" + CHILD_MAX_SECONDS));
        command.addAll(storeArgs);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile()).start();
        Incarnation result = new Incarnation(name, process, new boolean[1]);
        incarnations.add(result);
        return result;
    }

    /** Waits for the incarnation's ready file (every thread issued keys); fails with its log if it died or took too long. */
    private void awaitReady(final Incarnation incarnation) throws InterruptedException {
        long deadline = System.currentTimeMillis() + START_MILLIS;
        Path ready = dir.resolve(incarnation.name() + ".ready");
        while (!Files.exists(ready)) {
            if (!incarnation.process().isAlive()) {
                fail(incarnation.name() + " exited with " + incarnation.process().exitValue() + " before it was ready" + logs());
            }
            if (System.currentTimeMillis() > deadline) {
                fail(incarnation.name() + " not ready after " + START_MILLIS + " ms" + logs());
            }
            Thread.sleep(20);
        }
    }

    /** Waits until every live incarnation has written {@link #PROGRESS_BYTES} more, so each round kills busy processes. */
    private void awaitProgress(final Incarnation[] live) throws IOException, InterruptedException {
        long[] from = new long[live.length];
        for (int i = 0; i < live.length; i++) {
            from[i] = written(live[i]);
        }
        long deadline = System.currentTimeMillis() + START_MILLIS;
        for (int i = 0; i < live.length; i++) {
            while (written(live[i]) < from[i] + PROGRESS_BYTES) {
                if (!live[i].process().isAlive() || System.currentTimeMillis() > deadline) {
                    fail(live[i].name() + " stopped issuing (alive: " + live[i].process().isAlive() + ")" + logs());
                }
                Thread.sleep(20);
            }
        }
    }

    private long written(final Incarnation incarnation) throws IOException {
        long result = 0;
        for (int t = 0; t < THREADS; t++) {
            Path file = dir.resolve(incarnation.name() + "-t" + t + ".ids");
            result += Files.exists(file) ? Files.size(file) : 0;
        }
        return result;
    }

    private String logs() {
        StringBuilder result = new StringBuilder();
        for (Incarnation each : incarnations) {
            try {
                List<String> lines = Files.readAllLines(dir.resolve(each.name() + ".log"));
                result.append("\n--- ").append(each.name()).append(".log\n").append(String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size())));
            } catch (final IOException ex) {
                result.append("\n--- ").append(each.name()).append(".log unreadable: ").append(ex);
            }
        }
        return result.toString();
    }

    /** One started JVM; {@code killed[0]} once the test SIGKILLed it. */
    private record Incarnation(String name, Process process, boolean[] killed) {
    }
}
