package org.snowkey.lease.store.zookeeper.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.lease.testing.Ids;
import org.snowkey.lease.testing.TestScope;

/**
 * Several JVMs lease worker ids from one ZooKeeper and generate while some are killed, one at a time, with
 * SIGKILL (lease left to expire) or SIGTERM (lease released) and replaced. The pool is small, so replacements take
 * over the numbers of killed processes. Every id written by any process is checked: no duplicate.
 */
class MultiProcessUniquenessTest {

    private static final int WORKER_ID_BITS = 2;

    private static final int LIVE_PROCESSES = 3;

    /**
     * Kills in all; the pool has four numbers and three are live, so from the second kill on a replacement takes a used
     * one. Four in {@code mvn -B verify} (three SIGKILL, one SIGTERM: every transition the seven of a soak make; the
     * fault suite kills processes on a three-server ensemble too), seven with {@code -Dsnowkey.soak=true} or {@code -Psoak}.
     */
    private static final int KILLS = TestScope.soak() ? 7 : 4;

    /** How long a started process may take to issue its first id before the run is judged stalled (a loaded 2-core machine). */
    private static final long START_DEADLINE_MILLIS = 180_000;

    private static final long LEASE_MILLIS = 2_000;

    @TempDir
    Path dir;

    private final List<Process> everyProcess = new ArrayList<>();

    @Test
    void idsOfKilledAndRestartedProcessesNeverRepeat() throws Exception {
        Random random = new Random(42);
        List<Path> outputs = new ArrayList<>();
        int sigkills = 0;
        int sigterms = 0;
        try (TestingServer server = new TestingServer(true)) {
            List<Process> live = new ArrayList<>();
            for (int i = 0; i < LIVE_PROCESSES; i++) {
                live.add(start(server.getConnectString(), outputs));
            }
            // The schedule follows the processes, not the clock: on a loaded machine a JVM may take many seconds to
            // start, and a kill of a process that never issued tests nothing.
            while (sigkills + sigterms < KILLS) {
                awaitIssuing(live);
                Thread.sleep(1_000 + random.nextInt(1_500));
                Process victim = live.get(random.nextInt(live.size()));
                live.remove(victim);
                if ((sigkills + sigterms) % 3 == 2) {
                    victim.destroy();
                    sigterms++;
                } else {
                    victim.destroyForcibly();
                    sigkills++;
                }
                victim.waitFor(20, TimeUnit.SECONDS);
                live.add(start(server.getConnectString(), outputs));
            }
            awaitIssuing(live);
            for (Process each : live) {
                each.destroy();
            }
            for (Process each : everyProcess) {
                if (!each.waitFor(30, TimeUnit.SECONDS)) {
                    each.destroyForcibly();
                }
            }
        } finally {
            everyProcess.forEach(Process::destroyForcibly);
        }
        IdLayout layout = Ids.layout(WORKER_ID_BITS);
        long[] all = new long[0];
        int total = 0;
        Map<Integer, Set<Integer>> processesPerWorkerId = new HashMap<>();
        for (int p = 0; p < outputs.size(); p++) {
            long[] ids = read(outputs.get(p));
            for (long each : ids) {
                processesPerWorkerId.computeIfAbsent(layout.decode(each).workerId(), key -> new HashSet<>()).add(p);
            }
            all = Arrays.copyOf(all, total + ids.length);
            System.arraycopy(ids, 0, all, total, ids.length);
            total += ids.length;
        }
        System.out.printf("multi-process soak: %d ids from %d processes (%d SIGKILL, %d SIGTERM); processes per worker id: %s%n", total, outputs.size(),
                sigkills, sigterms, processesPerWorkerId);
        assertTrue(sigkills >= 2, "processes were killed with SIGKILL: " + sigkills);
        assertTrue(total > 10_000, "ids were generated: " + total + "; logs in " + dir + diagnostics());
        assertTrue(processesPerWorkerId.values().stream().anyMatch(each -> each.size() > 1),
                "a killed process's worker id was taken over by another process: " + processesPerWorkerId);
        Arrays.sort(all);
        List<Long> duplicates = new ArrayList<>();
        for (int i = 1; i < all.length; i++) {
            if (all[i] == all[i - 1]) {
                duplicates.add(all[i]);
            }
        }
        assertEquals(List.of(), duplicates.subList(0, Math.min(10, duplicates.size())),
                duplicates.size() + " duplicate ids among " + all.length + " from " + outputs.size() + " processes");
    }

    private final Map<Process, Path> outputOf = new HashMap<>();

    private void awaitIssuing(final List<Process> live) throws InterruptedException {
        long deadline = System.currentTimeMillis() + START_DEADLINE_MILLIS;
        while (!live.stream().allMatch(this::hasIssued)) {
            assertTrue(System.currentTimeMillis() < deadline, "a started process issued no id within " + START_DEADLINE_MILLIS + " ms" + diagnostics());
            Thread.sleep(100);
        }
    }

    private boolean hasIssued(final Process process) {
        try {
            Path output = outputOf.get(process);
            return Files.exists(output) && Files.size(output) > 0;
        } catch (final IOException ex) {
            return false;
        }
    }

    private Process start(final String connectString, final List<Path> outputs) throws IOException {
        int index = outputs.size();
        Path output = dir.resolve("ids-" + index + ".bin");
        outputs.add(output);
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx96m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
                "-D" + "snowkey.lease.checkpoint-dir" + "=" + dir.resolve("checkpoints"),
                "-cp", classpath, LeasedGeneratorProcess.class.getName(),
                connectString, "multiprocess", "soak", String.valueOf(WORKER_ID_BITS), String.valueOf(LEASE_MILLIS), output.toString());
        builder.redirectOutput(dir.resolve("out-" + index + ".log").toFile());
        builder.redirectError(dir.resolve("err-" + index + ".log").toFile());
        Process process = builder.start();
        everyProcess.add(process);
        outputOf.put(process, output);
        return process;
    }

    private static long[] read(final Path file) throws IOException {
        if (!Files.exists(file)) {
            // Killed before it opened its file.
            return new long[0];
        }
        long size = Files.size(file);
        long[] ids = new long[(int) (size / 8)];
        try (InputStream raw = Files.newInputStream(file); DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 1 << 16))) {
            for (int i = 0; i < ids.length; i++) {
                ids[i] = in.readLong();
            }
        } catch (final EOFException truncated) {
            // A SIGKILL may cut the last write short; whole ids before it were read.
        }
        return ids;
    }

    private String diagnostics() {
        StringBuilder result = new StringBuilder();
        File[] logs = dir.toFile().listFiles((d, name) -> name.endsWith(".log"));
        if (logs != null) {
            for (File each : logs) {
                try {
                    String text = Files.readString(each.toPath());
                    result.append("\n--- ").append(each.getName()).append('\n').append(text, Math.max(0, text.length() - 1_500), text.length());
                } catch (final IOException ex) {
                    result.append("\n--- ").append(each.getName()).append(": ").append(ex);
                }
            }
        }
        return result.toString();
    }
}
