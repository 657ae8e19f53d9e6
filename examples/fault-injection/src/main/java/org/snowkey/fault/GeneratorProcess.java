package org.snowkey.fault;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

import org.snowkey.keygen.generator.IdBatch;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.runtime.SnowflakePlanner;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.lease.LeasedWorkerLease;

/**
 * One generator JVM of the experiment (one <em>incarnation</em> of a slot): leases a worker id through the public
 * SnowKey props and issues ids in bursts, single calls and batches mixed, until it is killed or its time is up.
 *
 * <p>Output, in the directory given:
 * <ul>
 *   <li>{@code ids-<incarnation>.bin}: every id handed out, 8 bytes big-endian, flushed after every burst, so a SIGKILL
 *       loses only ids that no caller ever saw;</li>
 *   <li>{@code events-<incarnation>.txt}: one {@code GRANT} line per lease holding this incarnation issued on
 *       (wall-clock ms, worker id, floor, ceiling, ids written before it) and {@code FAIL} lines for calls that
 *       failed closed (counted, the first of each burst of failures with its message), and one {@code HOLDINGS} line
 *       whenever the worker ids it issues on change (wall-clock ms, how many, the worker ids, ids written before it):
 *       a hot generator leases more worker ids of its pool ({@link IdGenerator#workerIds()}).</li>
 * </ul>
 * The incarnation id is in both file names. Arguments: output directory, incarnation id, maximum seconds, burst
 * pause in microseconds, then {@code key=value} SnowKey props.
 */
public final class GeneratorProcess {

    private GeneratorProcess() {
    }

    private static LeaseGrant heldGrant(final IdGenerator generator) {
        if (generator.lease() instanceof LeasedWorkerLease leased) {
            return leased.heldGrant().orElse(null);
        }
        return null;
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
            SnowflakeRuntime runtime = SnowflakeRuntime.get();
            IdGenerator generator = null;
            while (generator == null && System.nanoTime() < stopAt) {
                try {
                    generator = runtime.generator(SnowflakePlanner.get().plan(props, Optional.empty()));
                } catch (final RuntimeException ex) {
                    events.println("FAIL " + System.currentTimeMillis() + " start-up: " + ex);
                    LockSupport.parkNanos(200_000_000L);
                }
            }
            LeaseGrant logged = null;
            long written = 0;
            long failures = 0;
            boolean failing = false;
            int[] holdings = new int[0];
            while (System.nanoTime() < stopAt) {
                int calls = 1 + random.nextInt(32);
                for (int c = 0; c < calls; c++) {
                    try {
                        LeaseGrant before = generator.currentGrant();
                        if (before != logged) {
                            events.println("GRANT " + System.currentTimeMillis() + " " + before.workerId() + " " + before.floorMillis() + " "
                                    + before.ceilingMillis() + " " + written + " " + before.holder());
                            logged = before;
                        }
                        long first;
                        long last;
                        IdBatch batch = null;
                        if (random.nextBoolean()) {
                            first = generator.nextId();
                            last = first;
                        } else {
                            batch = generator.nextIds(1 + random.nextInt(random.nextInt(16) == 0 ? 500 : 40));
                            first = batch.id(0);
                            last = batch.id(batch.size() - 1);
                        }
                        // The holding may have changed inside the call (revoked, re-acquired): look without acquiring.
                        LeaseGrant after = heldGrant(generator);
                        long boundary = -1;
                        if (after != null && after != logged) {
                            // The ids on its worker id at or above the new holding's floor are its first ones; with several
                            // holdings the ids of a batch interleave worker ids, so the first such id may lie anywhere in it.
                            int size = batch == null ? 1 : batch.size();
                            for (int i = 0; i < size && boundary < 0; i++) {
                                long id = batch == null ? first : batch.id(i);
                                if (generator.decode(id).workerId() == after.workerId() && generator.decode(id).timestamp().toEpochMilli() >= after.floorMillis()) {
                                    boundary = written + i;
                                }
                            }
                        }
                        if (batch == null) {
                            out.writeLong(first);
                            written++;
                        } else {
                            for (int i = 0; i < batch.size(); i++) {
                                out.writeLong(batch.id(i));
                            }
                            written += batch.size();
                        }
                        if (boundary >= 0) {
                            events.println("GRANT " + System.currentTimeMillis() + " " + after.workerId() + " " + after.floorMillis() + " "
                                    + after.ceilingMillis() + " " + boundary + " " + after.holder());
                            logged = after;
                        }
                        failing = false;
                    } catch (final RuntimeException ex) {
                        // Fail closed: lease lost or expired, registry unreachable beyond the reservation, clock moved back.
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
                int[] workerIds = generator.workerIds();
                if (!Arrays.equals(workerIds, holdings)) {
                    events.println("HOLDINGS " + System.currentTimeMillis() + " " + workerIds.length + " "
                            + Arrays.stream(workerIds).mapToObj(String::valueOf).collect(Collectors.joining(",")) + " " + written);
                    holdings = workerIds;
                }
                LockSupport.parkNanos(pauseNanos);
            }
            out.flush();
            events.println("END " + System.currentTimeMillis() + " " + written + " " + failures);
            runtime.closeAll();
        }
    }
}
