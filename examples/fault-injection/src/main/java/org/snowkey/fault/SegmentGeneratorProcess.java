package org.snowkey.fault;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

import org.snowkey.keygen.segment.SegmentBatch;
import org.snowkey.keygen.segment.SegmentSequence;
import org.snowkey.keygen.segment.runtime.SegmentPlanner;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.keygen.segment.runtime.SegmentScope;

/**
 * One generator JVM of the segment scenario ({@link SegmentFaultExperiment}): joins the {@code SNOWKEY_SEGMENT} scope
 * its props describe, as the ShardingSphere algorithm does, and issues keys of the shared {@code segment-key} in bursts,
 * single keys and batches mixed, on one thread, until it is killed or its time is up.
 *
 * <p>Output, in the directory given: {@code ids-<incarnation>.bin} (every key handed out, 8 bytes big-endian, flushed
 * after every burst, so a SIGKILL loses only keys no caller saw) and {@code events-<incarnation>.txt} ({@code START
 * <ms> <pid>}, a {@code FAIL <ms> <count> <exception>: <message>} line for the first failed call of each run of
 * failures, {@code END <ms> <written> <failures>}). Arguments: output directory, incarnation id, maximum seconds,
 * burst pause in microseconds, then {@code key=value} props.
 */
public final class SegmentGeneratorProcess {

    private SegmentGeneratorProcess() {
    }

    public static void main(final String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        String incarnation = args[1];
        long stopAt = System.nanoTime() + Long.parseLong(args[2]) * 1_000_000_000L;
        long pauseNanos = Long.parseLong(args[3]) * 1_000L;
        Properties props = new Properties();
        for (int i = 4; i < args.length; i++) {
            int equals = args[i].indexOf('=');
            props.setProperty(args[i].substring(0, equals), args[i].substring(equals + 1));
        }
        Random random = new Random(incarnation.hashCode());
        try (PrintStream events = new PrintStream(new FileOutputStream(dir.resolve("events-" + incarnation + ".txt").toFile(), true), true, StandardCharsets.UTF_8);
             DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(dir.resolve("ids-" + incarnation + ".bin").toFile()), 1 << 16))) {
            events.println("START " + System.currentTimeMillis() + " " + ProcessHandle.current().pid());
            // Joining connects to nothing: the first key fetches the first range, so a store down at start-up shows as failed calls.
            SegmentScope scope = SegmentRuntime.get().join(SegmentPlanner.get().plan(SegmentPlanner.get().parse(props), Optional.empty()), incarnation);
            SegmentSequence sequence = scope.sequence(scope.segmentKey().shared());
            long written = 0;
            long failures = 0;
            boolean failing = false;
            while (System.nanoTime() < stopAt) {
                int calls = 1 + random.nextInt(32);
                for (int c = 0; c < calls; c++) {
                    try {
                        if (random.nextBoolean()) {
                            out.writeLong(sequence.nextId());
                            written++;
                        } else {
                            SegmentBatch batch = sequence.nextIds(1 + random.nextInt(random.nextInt(16) == 0 ? 500 : 40));
                            for (int i = 0; i < batch.size(); i++) {
                                out.writeLong(batch.key(i));
                            }
                            written += batch.size();
                        }
                        failing = false;
                    } catch (final RuntimeException ex) {
                        // Both buffers empty and no range within segment-fetch-timeout-milliseconds: the insert fails, naming the key.
                        failures++;
                        if (!failing) {
                            events.println("FAIL " + System.currentTimeMillis() + " " + failures + " " + ex.getClass().getSimpleName() + ": " + ex.getMessage());
                            failing = true;
                        }
                        out.flush();
                        LockSupport.parkNanos(20_000_000L);
                    }
                }
                out.flush();
                LockSupport.parkNanos(pauseNanos);
            }
            out.flush();
            events.println("END " + System.currentTimeMillis() + " " + written + " " + failures);
            SegmentRuntime.get().closeAll();
        }
    }
}
