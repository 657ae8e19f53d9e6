package org.snowkey.lease.store.zookeeper.process;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.locks.LockSupport;

import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.runtime.SnowflakePlanner;
import org.snowkey.keygen.runtime.SnowflakeRuntime;

/**
 * Test fixture, run as its own JVM by {@code MultiProcessUniquenessTest}: leases a worker id from ZooKeeper through
 * the public props and writes every id it issues to a file (8 bytes each, flushed in small batches), until it is
 * killed. A SIGTERM releases the lease through the runtime's shutdown hook; a SIGKILL leaves it to expire.
 *
 * <p>Arguments: connect string, namespace, pool, worker-id-bits, lease duration ms, output file.
 */
public final class LeasedGeneratorProcess {

    /** Ids written between flushes; a SIGKILL loses at most this many, which the checker then never sees. */
    private static final int BATCH = 64;

    private LeasedGeneratorProcess() {
    }

    public static void main(final String[] args) throws IOException {
        Properties props = new Properties();
        props.setProperty("lease-registry", "zookeeper");
        props.setProperty("zookeeper-server-lists", args[0]);
        props.setProperty("zookeeper-namespace", args[1]);
        props.setProperty("lease-pool", args[2]);
        props.setProperty("worker-id-bits", args[3]);
        props.setProperty("lease-duration-milliseconds", args[4]);
        props.setProperty("lease-acquire-timeout-milliseconds", "30000");
        IdGenerator generator = SnowflakeRuntime.get().generator(SnowflakePlanner.get().plan(props, Optional.empty()));
        System.out.println("LEASED " + generator.currentGrant());
        System.out.flush();
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(args[5]), BATCH * 8))) {
            while (true) {
                for (int i = 0; i < BATCH; i++) {
                    long id;
                    try {
                        id = generator.nextId();
                    } catch (final RuntimeException ex) {
                        // Between leases, or after the shutdown hook released the lease: nothing was issued.
                        System.err.println("no id: " + ex.getMessage());
                        LockSupport.parkNanos(50_000_000L);
                        continue;
                    }
                    out.writeLong(id);
                }
                out.flush();
                // Bursty, moderate rate: exercises the time cache without flooding two shared cores.
                LockSupport.parkNanos(1_000_000L);
            }
        }
    }
}
