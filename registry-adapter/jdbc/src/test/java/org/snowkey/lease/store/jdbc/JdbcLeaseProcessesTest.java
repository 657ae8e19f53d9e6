package org.snowkey.lease.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.store.jdbc.JdbcTableName;
import org.snowkey.lease.testing.TestScope;

/**
 * Several JVM processes lease worker ids from one table and generate ids while some of them are killed with
 * SIGKILL (no release: their numbers stay out until expiry, then are taken over) or stopped with SIGTERM
 * (released by the shutdown hook) and restarted. Every id that any process handed out is collected: none
 * may repeat. The pool is small (4 numbers for 3 processes plus the dead), so numbers do change hands.
 */
class JdbcLeaseProcessesTest {

    private static final int PROCESSES = 3;

    private static final int WORKER_ID_BITS = 2;

    /** A child stops by itself after this long, whatever happens to the test. */
    private static final int CHILD_MAX_SECONDS = 90;

    /** Kills and graceful stops, each followed by a restart. */
    private static final int RESTARTS = 8;

    /** Bounds the whole run even when the machine is slow. */
    private static final long MAX_RUN_MILLIS = 120_000L;

    @TempDir
    Path work;

    private final List<Child> started = new ArrayList<>();

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void killedAndRestartedProcessesNeverRepeatAnId(final TestDatabase database) throws Exception {
        // The same processes and kills on every database: the protocol is one, and the stores' SQL is the store
        // contract's (JdbcLeaseStore*Test, every database). CI runs it on H2 here and on PostgreSQL in the fault suite.
        if (database != TestDatabase.H2) {
            TestScope.assumeRepeatWanted(database.title(), "the multi-process kill and restart scenario",
                    "H2 (here) and PostgreSQL (examples/fault-injection, GENERATOR_SIGKILL)");
        }
        database.assumeAvailable();
        JdbcTableName table = TestDatabase.uniqueTable("processes");
        List<Child> running = new ArrayList<>();
        Random random = new Random(42);
        int kills = 0;
        int stops = 0;
        try {
            for (int i = 0; i < PROCESSES; i++) {
                running.add(start(database, table));
            }
            long deadline = System.currentTimeMillis() + MAX_RUN_MILLIS;
            while (kills + stops < RESTARTS && System.currentTimeMillis() < deadline) {
                int victim = random.nextInt(PROCESSES);
                Child child = running.get(victim);
                // Only a process that issues is worth killing: on 2 busy cores a JVM may need seconds to start.
                awaitIssuing(child, deadline);
                Thread.sleep(200 + random.nextInt(800));
                // Every fourth restart is graceful (SIGTERM: the shutdown hook releases), the others are crashes.
                if ((kills + stops) % 4 == 3) {
                    child.process().destroy();
                    stops++;
                } else {
                    child.process().destroyForcibly();
                    kills++;
                }
                assertTrue(child.process().waitFor(60, TimeUnit.SECONDS), "a child did not exit");
                System.out.printf("%s %s: %s child %d after %d ids%n", java.time.LocalTime.now(), database, child.process().exitValue() == 137 ? "SIGKILLed" : "stopped",
                        started.indexOf(child), readIds(child.output()).size());
                running.set(victim, start(database, table));
            }
        } finally {
            for (Child each : running) {
                each.process().destroy();
            }
            for (Child each : running) {
                if (!each.process().waitFor(60, TimeUnit.SECONDS)) {
                    each.process().destroyForcibly();
                }
            }
            database.dropQuietly(table);
        }
        IdLayout layout = IdLayout.of(WORKER_ID_BITS, 1, IdLayout.defaults().epochMillis());
        Set<Long> seen = new HashSet<>();
        Map<Integer, Integer> processesPerWorkerId = new TreeMap<>();
        int issuing = 0;
        long total = 0;
        for (Child each : started) {
            List<Long> ids = readIds(each.output());
            Set<Integer> workerIds = new HashSet<>();
            for (long id : ids) {
                assertTrue(seen.add(id), () -> "duplicate id " + id + " (" + layout.decode(id) + ") in " + each.output().getFileName() + "\n" + logs());
                workerIds.add(layout.decode(id).workerId());
            }
            workerIds.forEach(workerId -> processesPerWorkerId.merge(workerId, 1, Integer::sum));
            total += ids.size();
            issuing += ids.isEmpty() ? 0 : 1;
        }
        System.out.printf("%s: %d processes started, %d SIGKILL, %d SIGTERM, %d ids, all distinct; worker id -> processes that issued on it: %s%n",
                database, started.size(), kills, stops, total, processesPerWorkerId);
        int restarts = kills + stops;
        assertEquals(RESTARTS, restarts, () -> "restarts done within " + MAX_RUN_MILLIS + " ms\n" + logs());
        assertTrue(kills >= 3, "enough SIGKILLs: " + kills);
        int issuingProcesses = issuing;
        assertTrue(issuingProcesses > 1 << WORKER_ID_BITS, () -> "more issuing processes than numbers, so numbers changed hands: " + issuingProcesses + "\n" + logs());
        assertTrue(processesPerWorkerId.values().stream().anyMatch(count -> count > 1), "a number changed hands: " + processesPerWorkerId);
    }

    private void awaitIssuing(final Child child, final long deadline) throws IOException, InterruptedException {
        while (System.currentTimeMillis() < deadline && child.process().isAlive()) {
            if (Files.exists(child.output()) && Files.size(child.output()) > 0) {
                return;
            }
            Thread.sleep(50);
        }
    }

    private Child start(final TestDatabase database, final JdbcTableName table) throws IOException {
        int index = started.size();
        Path output = work.resolve("ids-" + index + ".txt");
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-Dsnowkey.lease.checkpoint-dir=" + work.resolve("checkpoints"), "-cp", classpath, LeaseWorkerProcess.class.getName(),
                output.toString(), String.valueOf(CHILD_MAX_SECONDS),
                "lease-registry=jdbc", "jdbc-url=" + database.networkUrl(), "jdbc-username=" + database.username(), "jdbc-password=" + database.password(),
                "jdbc-table=" + table.value(), "lease-pool=processes", "worker-id-bits=" + WORKER_ID_BITS, "lease-duration-milliseconds=1500",
                "lease-acquire-timeout-milliseconds=30000"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(work.resolve("child-" + index + ".log").toFile()).start();
        Child child = new Child(process, output);
        started.add(child);
        return child;
    }

    /** One started JVM and the file it writes its ids to. */
    private record Child(Process process, Path output) {
    }

    /** The ids of a file; a last line cut by SIGKILL mid-write (no newline) was never completely handed out and is ignored. */
    private static List<Long> readIds(final Path file) throws IOException {
        List<Long> ids = new ArrayList<>();
        if (!Files.exists(file)) {
            return ids;
        }
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        int complete = text.lastIndexOf('\n') + 1;
        for (String line : text.substring(0, complete).split("\n")) {
            if (!line.isEmpty()) {
                ids.add(Long.parseLong(line));
            }
        }
        return ids;
    }

    private String logs() {
        StringBuilder result = new StringBuilder();
        try (var files = Files.list(work)) {
            for (Path each : files.filter(path -> path.getFileName().toString().startsWith("child-")).sorted().toList()) {
                List<String> lines = Files.readAllLines(each);
                result.append("--- ").append(each.getFileName()).append('\n')
                        .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()))).append('\n');
            }
        } catch (final IOException ex) {
            result.append("(logs unreadable: ").append(ex).append(')');
        }
        return result.toString();
    }
}
