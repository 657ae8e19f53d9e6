package org.snowkey.lease.store.jdbc;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.Properties;

import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.runtime.SnowflakePlan;
import org.snowkey.keygen.runtime.SnowflakePlanner;
import org.snowkey.keygen.runtime.SnowflakeRuntime;

/**
 * Test fixture run as a separate JVM: generates ids through the real runtime (props in, lease from the
 * configured registry, release from the runtime's shutdown hook) and appends each one as a line to a file,
 * flushed after every small batch so that a SIGKILL loses at most ids that were never handed out. Stops by
 * itself after {@code max-seconds} so that no stray process outlives a broken test.
 *
 * <p>Arguments: the output file, the number of seconds to run at most, then {@code key=value} generator props.
 */
public final class LeaseWorkerProcess {

    private static final int BATCH = 20;

    private LeaseWorkerProcess() {
    }

    public static void main(final String[] args) throws IOException, InterruptedException {
        Path output = Path.of(args[0]);
        long stopAt = System.currentTimeMillis() + Long.parseLong(args[1]) * 1000L;
        Properties props = new Properties();
        for (int i = 2; i < args.length; i++) {
            int equals = args[i].indexOf('=');
            props.setProperty(args[i].substring(0, equals), args[i].substring(equals + 1));
        }
        SnowflakeRuntime runtime = SnowflakeRuntime.get();
        SnowflakePlan plan = SnowflakePlanner.get().plan(props, Optional.empty());
        IdGenerator generator = runtime.generator(plan);
        try (BufferedWriter out = Files.newBufferedWriter(output, StandardCharsets.US_ASCII, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            while (System.currentTimeMillis() < stopAt) {
                try {
                    for (int i = 0; i < BATCH; i++) {
                        out.write(Long.toString(generator.nextId()));
                        out.write('\n');
                    }
                } catch (final IllegalStateException unavailable) {
                    // Fail closed (lease lost, pool full while restarting, shutting down): report and retry.
                    System.err.println("no id: " + unavailable.getMessage());
                    Thread.sleep(50);
                }
                out.flush();
                Thread.sleep(1);
            }
        }
        runtime.closeAll();
    }
}
