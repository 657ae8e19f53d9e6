package org.snowkey.segment.store.process;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.segment.RangeAllocator;
import org.snowkey.keygen.segment.SegmentBatch;
import org.snowkey.keygen.segment.SegmentSequence;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.keygen.segment.StartValues;
import org.snowkey.segment.store.jdbc.JdbcRangeAllocator;
import org.snowkey.segment.store.jdbc.JdbcSegmentSettings;
import org.snowkey.segment.store.zookeeper.ZooKeeperRangeAllocator;
import org.snowkey.store.jdbc.JdbcTableName;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * Test fixture, run as its own JVM by {@code SegmentProcessesTest}: one incarnation of a process that issues segment
 * keys of {@link #KEYS} from a shared allocator, from several threads, as fast as the allocator lets it, and writes
 * every key it issued to one file per thread ({@code <name>-t<i>.ids}, flushed per batch), a line per call:
 * {@code <key index> <ticket before> <ticket after> <id>...} (one id, or a batch's). The tickets come from one counter
 * of the process, taken just before and just after the call, so the test can tell which calls returned before others
 * started. Once every thread has flushed keys
 * it creates {@code <name>.ready}. It stops cleanly (exit 0) when its standard input says {@code stop} or closes (the
 * test JVM died), and halts with exit 3 on any error, so a process that fails on its own is never mistaken for one the
 * test killed (SIGKILL: 137).
 *
 * <p>Arguments, {@code name=value}: {@code dir}, {@code name} (also the allocator's owner), {@code threads},
 * {@code step-min}, {@code step-max}, {@code max-seconds}, {@code store} = {@code jdbc} (with {@code jdbc-url},
 * {@code jdbc-username}, {@code jdbc-password}, {@code jdbc-table}) or {@code zookeeper} (with {@code zookeeper},
 * {@code namespace}).
 */
public final class SegmentWorkerProcess {

    /** Two keys with their start values: one at 1, one close below 2^53 - 1, so both ends of the number space are used. */
    static final List<String> KEYS = List.of("ds_0.t_order", "ds_1.t_item");

    static final StartValues STARTS = new StartValues(1L, Map.of(KEYS.get(1), (1L << 53) - 50_000_000L));

    /** Lines written between flushes: a SIGKILL loses at most this many keys per thread (issued, never recorded: a gap). */
    private static final int BATCH = 64;

    private SegmentWorkerProcess() {
    }

    public static void main(final String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        for (String each : args) {
            int equals = each.indexOf('=');
            options.put(each.substring(0, equals), each.substring(equals + 1));
        }
        Path dir = Path.of(options.get("dir"));
        String name = options.get("name");
        int threads = Integer.parseInt(options.get("threads"));
        long maxSeconds = Long.parseLong(options.get("max-seconds"));
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(TimeUnit.SECONDS.toMillis(maxSeconds));
            } catch (final InterruptedException ex) {
                return;
            }
            // The test never runs this long: it died without closing our input, or it hangs; do not outlive it.
            System.err.println(name + ": still running after " + maxSeconds + " s, halting");
            Runtime.getRuntime().halt(4);
        }, "watchdog");
        watchdog.setDaemon(true);
        watchdog.start();

        List<AutoCloseable> resources = new ArrayList<>();
        RangeAllocator allocator = allocator(options, name, resources);
        ExecutorService fetches = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "segment-fetch");
            thread.setDaemon(true);
            return thread;
        });
        // Small steps and an early prefetch: many allocations, most of them racing the other processes' ones.
        SegmentSettings settings = new SegmentSettings(Long.parseLong(options.get("step-min")), Long.parseLong(options.get("step-max")), 20L, 50, 30_000L);
        List<SegmentSequence> sequences = new ArrayList<>();
        for (String key : KEYS) {
            sequences.add(new SegmentSequence(key, allocator, settings, WallClock.system(), fetches));
        }

        CountDownLatch ready = new CountDownLatch(threads);
        AtomicLong issued = new AtomicLong();
        AtomicLong tickets = new AtomicLong();
        List<Thread> workers = new ArrayList<>();
        // Set by the main thread on "stop"; the workers finish their batch, flush and close their files.
        AtomicBoolean stop = new AtomicBoolean();
        for (int t = 0; t < threads; t++) {
            Path output = dir.resolve(name + "-t" + t + ".ids");
            long seed = name.hashCode() * 31L + t;
            Thread worker = new Thread(() -> {
                try {
                    issue(sequences, output, new Random(seed), ready, issued, tickets, stop);
                } catch (final Throwable ex) {
                    System.err.println(name + ": worker failed");
                    ex.printStackTrace();
                    System.err.flush();
                    Runtime.getRuntime().halt(3);
                }
            }, "issuer-" + t);
            worker.start();
            workers.add(worker);
        }
        ready.await();
        Files.createFile(dir.resolve(name + ".ready"));
        System.out.println(name + ": ready");
        System.out.flush();

        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII))) {
            String line;
            do {
                line = in.readLine();
            } while (line != null && !"stop".equals(line.trim()));
        }
        stop.set(true);
        for (Thread each : workers) {
            each.join();
        }
        sequences.forEach(SegmentSequence::close);
        for (SegmentSequence each : sequences) {
            System.out.println(name + ": " + each.status());
        }
        for (AutoCloseable each : resources) {
            each.close();
        }
        System.out.println(name + ": stopped after issuing " + issued.get() + " keys");
        System.out.flush();
        System.exit(0);
    }

    private static void issue(final List<SegmentSequence> sequences, final Path output, final Random random, final CountDownLatch ready,
            final AtomicLong issued, final AtomicLong tickets, final AtomicBoolean stop) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(output, StandardCharsets.US_ASCII)) {
            while (!stop.get()) {
                int written = 0;
                while (written < BATCH) {
                    int index = random.nextInt(sequences.size());
                    SegmentSequence sequence = sequences.get(index);
                    // Tickets around the call: a call whose "after" ticket is below another's "before" ticket returned before
                    // that one started, so its keys must be lower (keys increase within one process, across its threads).
                    long before = tickets.getAndIncrement();
                    // Single keys and batches (which may span ranges) alike.
                    if (random.nextBoolean()) {
                        long id = sequence.nextId();
                        out.write(index + " " + before + " " + tickets.getAndIncrement() + " " + id + "\n");
                        written++;
                    } else {
                        SegmentBatch batch = sequence.nextIds(1 + random.nextInt(8));
                        StringBuilder line = new StringBuilder().append(index).append(' ').append(before).append(' ').append(tickets.getAndIncrement());
                        for (int i = 0; i < batch.size(); i++) {
                            line.append(' ').append(batch.key(i));
                        }
                        out.write(line.append('\n').toString());
                        written += batch.size();
                    }
                }
                out.flush();
                issued.addAndGet(written);
                ready.countDown();
            }
        }
    }

    private static RangeAllocator allocator(final Map<String, String> options, final String name, final List<AutoCloseable> resources) {
        switch (options.get("store")) {
            case "jdbc" -> {
                HikariConfig config = new HikariConfig();
                config.setJdbcUrl(options.get("jdbc-url"));
                config.setUsername(options.get("jdbc-username"));
                config.setPassword(options.get("jdbc-password"));
                config.setMaximumPoolSize(3);
                config.setMinimumIdle(0);
                config.setConnectionTimeout(20_000L);
                HikariDataSource pool = new HikariDataSource(config);
                resources.add(pool);
                JdbcSegmentSettings settings = new JdbcSegmentSettings(new JdbcTableName(options.get("jdbc-table")), true, 10_000L, options.get("jdbc-url"));
                return new JdbcRangeAllocator(pool, settings, name, STARTS);
            }
            case "zookeeper" -> {
                CuratorFramework client = CuratorFrameworkFactory.builder().connectString(options.get("zookeeper"))
                        .retryPolicy(new ExponentialBackoffRetry(50, 5)).connectionTimeoutMs(20_000).sessionTimeoutMs(30_000).build();
                client.start();
                resources.add(client);
                return new ZooKeeperRangeAllocator(client, options.get("namespace"), name, STARTS);
            }
            default -> throw new IllegalArgumentException("store=" + options.get("store") + "; allowed: jdbc, zookeeper");
        }
    }
}
