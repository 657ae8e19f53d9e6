package org.snowkey.fault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.snowkey.keygen.layout.IdLayout;

/**
 * The fault injection experiment of one scenario: generator JVMs leasing worker ids from a registry (a 3-server
 * ZooKeeper ensemble, PostgreSQL behind a cuttable proxy, or one etcd server) while faults are injected on a schedule drawn from a
 * seed, then the checks of {@link IdChecker} and a report.
 *
 * <p>The pool is deliberately tight (worker-id-bits 2: four numbers for four generators), so a crashed or paused
 * holder's number is taken over by the next process that needs one, and the zombie case really has a successor.
 */
public final class FaultExperiment {

    /** The registry behind the leases. */
    public enum Registry {
        ZOOKEEPER, JDBC, ETCD
    }

    /** What can go wrong. */
    public enum FaultKind {
        /** SIGKILL a generator, start a new incarnation of it at once (its number expires, then is taken over). */
        GENERATOR_SIGKILL,
        /** SIGSTOP a generator beyond its lease; another process takes its number; SIGCONT while the successor holds it. */
        ZOMBIE_PAUSE,
        /** SIGSTOP a generator beyond its ZooKeeper session (capped by the servers) but within its lease. */
        SESSION_EXPIRY,
        /** SIGKILL one ZooKeeper server, start it again a little later. */
        ZK_SERVER_RESTART,
        /** SIGKILL two of three ZooKeeper servers (no quorum) for a while, then start them again. */
        QUORUM_LOSS,
        /** Cut every connection between the generators and the database for a while. */
        DB_PARTITION,
        /**
         * SIGKILL the etcd server (the only one: the store is gone), start it again on the same data directory a little
         * later or after every lease has expired.
         */
        ETCD_SERVER_RESTART,
        /** The wall clock of the faketime generator jumps back, stays behind for a while, then returns. */
        CLOCK_JUMP_BACK,
        /** The wall clock of the faketime generator jumps forward for a while, then back to real time. */
        CLOCK_JUMP_FORWARD,
        /**
         * Combined: the store goes away (quorum loss, database cut or etcd server killed), a holder is SIGSTOPped during the outage for longer
         * than its lease, the store comes back while it is still stopped, a fifth process takes a number, then SIGCONT.
         */
        ZOMBIE_PAUSE_DURING_OUTAGE,
        /**
         * Combined: a holder is SIGKILLed or stopped gracefully; its next incarnation, under libfaketime, has its clock
         * jumped (back or forward) while it takes the number over. Without libfaketime only the hand-over runs.
         */
        CLOCK_JUMP_DURING_HANDOVER,
        /** Combined: one ZooKeeper server is SIGKILLed and started again while a generator is SIGSTOPped beyond its session. */
        ZK_SERVER_RESTART_DURING_SESSION_EXPIRY,
        /**
         * Segment scenario only ({@link SegmentFaultExperiment}): the allocator goes away (quorum loss or database cut), a
         * generator is SIGKILLed and started again while it is away, so the new incarnation starts with no range at all.
         */
        GENERATOR_SIGKILL_DURING_OUTAGE
    }

    /** How the run is sized. */
    public record Settings(Registry registry, long seed, long faultMillis, Path dir, int generators, long leaseMillis, long pauseMicros,
                           String libfaketime, String jdbcUrl, String jdbcUser) {
    }

    /** One injected fault and how long the generators it hit took to issue again. */
    public record Fault(FaultKind kind, String detail, long start, long end, List<Integer> affected, long recoveredAt, long stallMillis) {

        long recoveryMillis() {
            return recoveredAt < 0 ? -1 : recoveredAt - end;
        }
    }

    /** A generator slot: successive incarnations of one logical generator. */
    private final class Slot {

        final int index;

        final boolean faketime;

        volatile Process process;

        volatile String incarnation;

        volatile Path ids;

        /** The libfaketime offset file of the current incarnation, or null when it runs on the real clock. */
        volatile Path offsetFile;

        volatile long lastSize;

        int incarnations;

        /** Wall-clock ms of every sample at which the slot's id file had grown. */
        final List<Long> growth = new CopyOnWriteArrayList<>();

        Slot(final int index, final boolean faketime) {
            this.index = index;
            this.faketime = faketime;
        }

        void start() throws IOException {
            start(faketime ? faketimeFile() : null);
        }

        /** Starts the next incarnation, under libfaketime reading {@code offset} when it is not null. */
        void start(final Path offset) throws IOException {
            incarnations++;
            incarnation = "g" + index + "-i" + incarnations;
            ids = settings.dir().resolve("ids-" + incarnation + ".bin");
            lastSize = 0;
            offsetFile = offset;
            process = startGenerator(incarnation, offset);
        }

        long lastGrowthAtOrBefore(final long time) {
            long result = -1;
            for (long each : growth) {
                if (each <= time) {
                    result = each;
                }
            }
            return result;
        }

        /** The longest time without a new id between two samples, from {@code from} to {@code to} (both growth samples or bounds). */
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

        long firstGrowthAfter(final long time) {
            for (long each : growth) {
                if (each > time) {
                    return each;
                }
            }
            return -1;
        }
    }

    private static final int WORKER_ID_BITS = 2;

    /** In the detail of a zombie pause during an outage whose number got no successor while it was stopped. */
    static final String NOT_TAKEN_OVER = "NOT taken over";

    private final Settings settings;

    private final Random random;

    private final Processes processes = new Processes();

    private final List<Slot> slots = new ArrayList<>();

    private final List<Fault> faults = new ArrayList<>();

    private final String pool;

    /** The ZooKeeper ensemble or the proxied database the generators share. */
    private FaultStore faultStore;

    private int intruders;


    private volatile boolean monitoring = true;

    public FaultExperiment(final Settings settings) {
        this.settings = settings;
        this.random = new Random(settings.seed());
        this.pool = "fault-" + Long.toHexString(settings.seed()) + "-" + Long.toString(System.currentTimeMillis(), 36);
    }

    /** Runs the scenario, checks the files, returns the report. Every process started is dead when this returns. */
    public FaultReport run() throws Exception {
        Files.createDirectories(settings.dir());
        // Load the checker's classes first: other builds on this machine may re-install the SnowKey jars while a long run goes on.
        IdLayout layout = IdLayout.of(WORKER_ID_BITS, 1, Instant.parse("2025-01-01T00:00:00Z").toEpochMilli());
        IdChecker checker = new IdChecker(layout);
        layout.decode(layout.compose(layout.counterAt(1), 1));
        long began = System.currentTimeMillis();
        try {
            faultStore = FaultStore.start(settings.registry(), settings.dir(), settings.jdbcUrl(), processes, "");
            for (int i = 0; i < settings.generators(); i++) {
                Slot slot = new Slot(i, i == 0 && settings.libfaketime() != null);
                slots.add(slot);
                slot.start();
            }
            Thread monitor = new Thread(this::monitor, "fault-monitor");
            monitor.setDaemon(true);
            monitor.start();
            awaitAllIssuing(System.currentTimeMillis(), 90_000);
            log("all %d generators issue; injecting faults for %d s (seed %d)", slots.size(), settings.faultMillis() / 1000, settings.seed());
            injectFaults();
            // A quiet tail: every generator must be issuing again before the run ends.
            awaitAllIssuing(System.currentTimeMillis(), 60_000);
            Thread.sleep(2_000);
            for (Slot each : slots) {
                // SIGTERM: the shutdown hook releases the lease with the exact high-water mark.
                each.process.destroy();
            }
            for (Slot each : slots) {
                if (!each.process.waitFor(20, TimeUnit.SECONDS)) {
                    each.process.destroyForcibly();
                }
            }
        } finally {
            monitoring = false;
            processes.close();
            if (faultStore != null) {
                faultStore.close();
            }
        }
        long ran = System.currentTimeMillis() - began;
        IdChecker.Result result = checker.check(settings.dir());
        List<Integer> silent = new ArrayList<>();
        for (Fault each : faults) {
            if (each.recoveredAt() < 0) {
                silent.add(faults.indexOf(each));
            }
        }
        return new FaultReport(settings, ran, List.copyOf(faults), result, sessionExpiries(), silent);
    }

    private List<String> props(final String incarnation) {
        List<String> props = new ArrayList<>(List.of("worker-id-bits=" + WORKER_ID_BITS, "lease-pool=" + pool,
                "lease-duration-milliseconds=" + settings.leaseMillis(), "lease-acquire-timeout-milliseconds=30000", "instance-id=" + incarnation));
        props.addAll(faultStore.leaseProps(settings.jdbcUser()));
        return props;
    }

    private Process startGenerator(final String incarnation, final Path offset) throws IOException {
        List<String> command = Processes.javaCommand("-Xmx128m", "-Dorg.slf4j.simpleLogger.showDateTime=true",
                "-Dsnowkey.lease.checkpoint-dir=" + settings.dir().resolve("checkpoints-" + incarnation.replaceFirst("-i\\d+$", "")),
                GeneratorProcess.class.getName(), settings.dir().toString(), incarnation, String.valueOf(settings.faultMillis() / 1000 + 600),
                String.valueOf(settings.pauseMicros()));
        command.addAll(props(incarnation));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.redirectErrorStream(true).redirectOutput(settings.dir().resolve("log-" + incarnation + ".txt").toFile());
        if (offset != null) {
            if (!Files.exists(offset)) {
                Files.writeString(offset, "+0\n");
            }
            builder.environment().put("LD_PRELOAD", settings.libfaketime());
            builder.environment().put("FAKETIME_TIMESTAMP_FILE", offset.toString());
            builder.environment().put("FAKETIME_CACHE_DURATION", "1");
            // Without it the JVM's monotonic clock is faked too, and timed waits hang.
            builder.environment().put("FAKETIME_DONT_FAKE_MONOTONIC", "1");
            // libfaketime 0.9.10 and Java 17: with the default monotonic fix, LockSupport.parkNanos returns at once
            // (every timed wait spins) and Thread.sleep oversleeps several times; 0 makes both wait right.
            builder.environment().put("FAKETIME_FORCE_MONOTONIC_FIX", "0");
        }
        return processes.start(builder);
    }

    private Path faketimeFile() {
        return settings.dir().resolve("faketime-offset.txt");
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

    private List<FaultKind> kinds() {
        List<FaultKind> kinds = new ArrayList<>(List.of(FaultKind.GENERATOR_SIGKILL, FaultKind.ZOMBIE_PAUSE));
        if (settings.registry() == Registry.ZOOKEEPER) {
            kinds.addAll(List.of(FaultKind.SESSION_EXPIRY, FaultKind.ZK_SERVER_RESTART, FaultKind.QUORUM_LOSS));
        } else if (settings.registry() == Registry.ETCD) {
            kinds.add(FaultKind.ETCD_SERVER_RESTART);
        } else {
            kinds.add(FaultKind.DB_PARTITION);
        }
        if (settings.libfaketime() != null) {
            kinds.addAll(List.of(FaultKind.CLOCK_JUMP_BACK, FaultKind.CLOCK_JUMP_FORWARD));
        }
        kinds.addAll(combinedKinds(settings.registry()));
        return kinds;
    }

    /** The combined faults a scenario injects (the hand-over runs without its clock part where libfaketime is absent). */
    public static List<FaultKind> combinedKinds(final Registry registry) {
        List<FaultKind> kinds = new ArrayList<>(List.of(FaultKind.ZOMBIE_PAUSE_DURING_OUTAGE, FaultKind.CLOCK_JUMP_DURING_HANDOVER));
        if (registry == Registry.ZOOKEEPER) {
            kinds.add(FaultKind.ZK_SERVER_RESTART_DURING_SESSION_EXPIRY);
        }
        return kinds;
    }

    private void injectFaults() throws Exception {
        long end = System.currentTimeMillis() + settings.faultMillis();
        List<FaultKind> kinds = kinds();
        // Every kind once first (in a seeded order), then seeded random picks until the time is up.
        List<FaultKind> first = new ArrayList<>(kinds);
        Collections.shuffle(first, random);
        int next = 0;
        while (next < first.size() || System.currentTimeMillis() < end) {
            FaultKind kind = next < first.size() ? first.get(next++) : kinds.get(random.nextInt(kinds.size()));
            Fault fault = inject(kind);
            long settleStart = System.currentTimeMillis();
            awaitAllIssuing(fault.end(), 60_000);
            Fault measured = measure(fault);
            faults.add(measured);
            log("%-39s %-60s window %5d ms, stall %5d ms, issuing again %s", kind, fault.detail(), fault.end() - fault.start(), measured.stallMillis(),
                    measured.recoveredAt() < 0 ? "NOT within " + (System.currentTimeMillis() - settleStart) + " ms" : measured.recoveryMillis() + " ms after the fault ended");
            Thread.sleep(500 + random.nextInt(1_500));
        }
    }

    private Fault inject(final FaultKind kind) throws Exception {
        long lease = settings.leaseMillis();
        long start = System.currentTimeMillis();
        switch (kind) {
            case GENERATOR_SIGKILL: {
                Slot victim = slots.get(random.nextInt(slots.size()));
                String old = victim.incarnation;
                victim.process.destroyForcibly();
                victim.process.waitFor(20, TimeUnit.SECONDS);
                victim.start();
                return fault(kind, "SIGKILL " + old + ", started " + victim.incarnation, start, System.currentTimeMillis(), victim);
            }
            case ZOMBIE_PAUSE: {
                Slot victim = slots.get(random.nextInt(slots.size()));
                Processes.signal(victim.process, "STOP");
                Thread.sleep(lease + 1_000 + random.nextInt(1_000));
                // A fifth process needs a number: the paused holder's has expired, the others are held.
                Intruder intruder = startIntruder();
                intruder.awaitFirstId(40_000);
                long paused = System.currentTimeMillis() - start;
                // The zombie wakes while its successor holds the number.
                Processes.signal(victim.process, "CONT");
                long end = System.currentTimeMillis();
                Thread.sleep(1_500);
                intruder.stopGracefully();
                return fault(kind, "SIGSTOP " + victim.incarnation + " " + paused + " ms, successor " + intruder.name(), start, end, victim);
            }
            case ZOMBIE_PAUSE_DURING_OUTAGE: {
                Slot victim = slots.get(random.nextInt(slots.size()));
                // The outage outlasts the victim's lease, so it is SIGSTOPped past its expiry and still stopped when the store returns.
                long outage = lease + 500 + random.nextInt(1_500);
                String store = faultStore.down(random);
                Processes.signal(victim.process, "STOP");
                int number = lastGrantedWorkerId(victim.incarnation);
                // Started during the outage: it acquires as soon as the store answers, while the victim is still stopped.
                Intruder intruder = startIntruder();
                Thread.sleep(Math.max(0, start + outage - System.currentTimeMillis()));
                faultStore.back();
                long storeBack = System.currentTimeMillis() - start;
                // Every lease expired during the outage; four running processes want the four numbers, so one of them ends up
                // issuing on the stopped victim's number: wake it only then, a zombie with a successor.
                String successor = awaitIssuingOn(number, victim.incarnation, start, 40_000);
                long paused = System.currentTimeMillis() - start;
                Processes.signal(victim.process, "CONT");
                long end = System.currentTimeMillis();
                Thread.sleep(1_500);
                intruder.stopGracefully();
                return fault(kind, store + " " + outage + " ms; SIGSTOP " + victim.incarnation + " " + paused + " ms (store back at " + storeBack + " ms), worker id "
                        + number + (successor == null ? " " + NOT_TAKEN_OVER + " within 40 s" : " taken over by " + successor), start, end, slots.toArray(Slot[]::new));
            }
            case CLOCK_JUMP_DURING_HANDOVER: {
                Slot victim = slots.get(random.nextInt(slots.size()));
                String old = victim.incarnation;
                boolean graceful = random.nextBoolean();
                String sign = random.nextBoolean() ? "-" : "+";
                long jump = 500 + random.nextInt((int) (lease + 1_500));
                long hold = 1_500 + random.nextInt(3_000);
                if (graceful) {
                    // SIGTERM: the shutdown hook releases the number with the exact high-water mark; the successor claims it at once.
                    victim.process.destroy();
                } else {
                    // SIGKILL: the number stays held until the lease expires; the successor waits for that.
                    victim.process.destroyForcibly();
                }
                if (!victim.process.waitFor(20, TimeUnit.SECONDS)) {
                    victim.process.destroyForcibly();
                    victim.process.waitFor(20, TimeUnit.SECONDS);
                }
                String how = (graceful ? "SIGTERM " : "SIGKILL ") + old;
                if (settings.libfaketime() == null) {
                    victim.start();
                    log("%s: clock part SKIPPED (libfaketime not found), hand-over only", kind);
                    return fault(kind, how + ", started " + victim.incarnation + "; clock part SKIPPED (no libfaketime)", start, System.currentTimeMillis(), victim);
                }
                Path offset = settings.dir().resolve("faketime-g" + victim.index + "-i" + (victim.incarnations + 1) + ".txt");
                Files.writeString(offset, "+0\n");
                victim.start(offset);
                // The jump lands while the successor takes the number over: it is running (START logged) and acquiring.
                boolean started = awaitStarted(victim.incarnation, 30_000);
                Files.writeString(offset, String.format(Locale.ROOT, "%s%.3fs%n", sign, jump / 1000.0));
                Thread.sleep(hold);
                Files.writeString(offset, "+0\n");
                // libfaketime re-reads the file every second.
                Thread.sleep(1_100);
                return fault(kind, how + ", successor " + victim.incarnation + " clock " + sign + jump + " ms for " + hold + " ms"
                        + (started ? "" : " (successor not started within 30 s)"), start, System.currentTimeMillis(), victim);
            }
            case ZK_SERVER_RESTART_DURING_SESSION_EXPIRY: {
                Slot victim = slots.get(random.nextInt(slots.size()));
                int server = random.nextInt(ZooKeeperEnsemble.SIZE);
                long pause = ZooKeeperEnsemble.MAX_SESSION_MILLIS + 700 + random.nextInt((int) Math.max(1, lease - ZooKeeperEnsemble.MAX_SESSION_MILLIS - 2_000));
                faultStore.ensemble().kill(server);
                Processes.signal(victim.process, "STOP");
                Thread.sleep(pause / 2);
                // The server starts again halfway through the pause: it rejoins (a new election if it led) while the victim,
                // whose session expires meanwhile, is still stopped.
                faultStore.ensemble().start(server);
                long down = System.currentTimeMillis() - start;
                Thread.sleep(Math.max(0, start + pause - System.currentTimeMillis()));
                Processes.signal(victim.process, "CONT");
                faultStore.ensemble().awaitQuorum(30_000);
                return fault(kind, "server " + (server + 1) + " down " + down + " ms, SIGSTOP " + victim.incarnation + " " + pause + " ms", start, System.currentTimeMillis(),
                        slots.toArray(Slot[]::new));
            }
            case SESSION_EXPIRY: {
                Slot victim = slots.get(random.nextInt(slots.size()));
                long pause = ZooKeeperEnsemble.MAX_SESSION_MILLIS + 700 + random.nextInt((int) Math.max(1, lease - ZooKeeperEnsemble.MAX_SESSION_MILLIS - 2_000));
                Processes.signal(victim.process, "STOP");
                Thread.sleep(pause);
                Processes.signal(victim.process, "CONT");
                return fault(kind, "SIGSTOP " + victim.incarnation + " " + pause + " ms", start, System.currentTimeMillis(), victim);
            }
            case ZK_SERVER_RESTART: {
                int server = random.nextInt(ZooKeeperEnsemble.SIZE);
                long down = 500 + random.nextInt(3_000);
                faultStore.ensemble().kill(server);
                Thread.sleep(down);
                faultStore.ensemble().start(server);
                faultStore.ensemble().awaitQuorum(30_000);
                return fault(kind, "server " + (server + 1) + " down " + down + " ms", start, System.currentTimeMillis(), slots.toArray(Slot[]::new));
            }
            case ETCD_SERVER_RESTART: {
                // Shorter than a lease (holders renew once it is back) or longer (every lease expires; generators fail closed, then acquire again).
                long down = 500 + random.nextInt((int) (2 * lease));
                faultStore.etcd().kill();
                Thread.sleep(down);
                long restarted = System.currentTimeMillis();
                faultStore.etcd().start(60_000);
                return fault(kind, "etcd down " + down + " ms, answering " + (System.currentTimeMillis() - restarted) + " ms after its start " + faultStore.etcd().starts(),
                        start, System.currentTimeMillis(), slots.toArray(Slot[]::new));
            }
            case QUORUM_LOSS:
            case DB_PARTITION: {
                long down = 1_000 + random.nextInt((int) (2 * lease));
                String store = faultStore.down(random);
                Thread.sleep(down);
                faultStore.back();
                return fault(kind, store + " for " + down + " ms", start, System.currentTimeMillis(), slots.toArray(Slot[]::new));
            }
            case CLOCK_JUMP_BACK:
            case CLOCK_JUMP_FORWARD: {
                Slot victim = slots.get(0);
                long jump = 500 + random.nextInt((int) (lease + 1_500));
                long hold = 1_500 + random.nextInt(3_000);
                String sign = kind == FaultKind.CLOCK_JUMP_BACK ? "-" : "+";
                Files.writeString(victim.offsetFile, String.format(Locale.ROOT, "%s%.3fs%n", sign, jump / 1000.0));
                Thread.sleep(hold);
                Files.writeString(victim.offsetFile, "+0\n");
                // libfaketime re-reads the file every second.
                Thread.sleep(1_100);
                return fault(kind, victim.incarnation + " clock " + sign + jump + " ms for " + hold + " ms", start, System.currentTimeMillis(), victim);
            }
            default:
                throw new IllegalArgumentException(kind.name());
        }
    }

    /** A process outside the slots that needs a number: the successor of a paused holder. */
    private final class Intruder {

        private final String name;

        private final Process process;

        Intruder(final String name, final Process process) {
            this.name = name;
            this.process = process;
        }

        String name() {
            return name;
        }

        /** Waits until its first ids are on disk; false when it issued nothing within the timeout. */
        boolean awaitFirstId(final long timeoutMillis) throws IOException, InterruptedException {
            Path file = settings.dir().resolve("ids-" + name + ".bin");
            long deadline = System.currentTimeMillis() + timeoutMillis;
            while (System.currentTimeMillis() < deadline) {
                if (Files.exists(file) && Files.size(file) > 0) {
                    return true;
                }
                Thread.sleep(100);
            }
            return false;
        }

        /** SIGTERM: it releases its number with the exact high-water mark. */
        void stopGracefully() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    private Intruder startIntruder() throws IOException {
        intruders++;
        String name = "x" + intruders;
        return new Intruder(name, startGenerator(name, null));
    }

    /** The worker id of the incarnation's last {@code GRANT} line, or -1. */
    private int lastGrantedWorkerId(final String incarnation) throws IOException {
        int result = -1;
        Path events = settings.dir().resolve("events-" + incarnation + ".txt");
        if (Files.exists(events)) {
            for (String line : Files.readAllLines(events)) {
                String[] parts = line.split(" ");
                if (parts[0].equals("GRANT") && parts.length > 2 && parts[2].matches("\\d+")) {
                    result = Integer.parseInt(parts[2]);
                }
            }
        }
        return result;
    }

    /**
     * Waits until an incarnation other than {@code holder} logs a {@code GRANT} of {@code workerId} at or after
     * {@code since} (a process logs it with its first id on the holding); returns that incarnation, or null on timeout.
     */
    private String awaitIssuingOn(final int workerId, final String holder, final long since, final long timeoutMillis) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < deadline) {
            try (Stream<Path> list = Files.list(settings.dir())) {
                for (Path each : list.filter(file -> file.getFileName().toString().startsWith("events-")).toList()) {
                    String incarnation = each.getFileName().toString().replaceFirst("^events-", "").replaceFirst("\\.txt$", "");
                    if (incarnation.equals(holder)) {
                        continue;
                    }
                    for (String line : Files.readAllLines(each)) {
                        String[] parts = line.split(" ");
                        // A line being written may be cut short: only whole numbers count.
                        if (parts[0].equals("GRANT") && parts.length > 2 && parts[1].matches("\\d+") && parts[2].matches("\\d+")
                                && Long.parseLong(parts[1]) >= since && Integer.parseInt(parts[2]) == workerId) {
                            return incarnation;
                        }
                    }
                }
            }
            Thread.sleep(100);
        }
        return null;
    }

    /** Waits until the incarnation's JVM runs its generator code (its events file has the START line). */
    private boolean awaitStarted(final String incarnation, final long timeoutMillis) throws IOException, InterruptedException {
        Path events = settings.dir().resolve("events-" + incarnation + ".txt");
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < deadline) {
            if (Files.exists(events) && Files.readString(events).startsWith("START ")) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    private static Fault fault(final FaultKind kind, final String detail, final long start, final long end, final Slot... affected) {
        return new Fault(kind, detail, start, end, Stream.of(affected).map(each -> each.index).toList(), -1, -1);
    }

    /** Recovery: when every affected slot issued after the fault ended; stall: the longest gap around the fault. */
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
            long before = slot.lastGrowthAtOrBefore(fault.start());
            stall = Math.max(stall, slot.longestGap(before < 0 ? fault.start() : before, after));
        }
        return new Fault(fault.kind(), fault.detail(), fault.start(), fault.end(), fault.affected(), recovered, stall);
    }

    /** Waits until every slot's id file grew after {@code since}. */
    private void awaitAllIssuing(final long since, final long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < deadline) {
            if (slots.stream().allMatch(each -> each.firstGrowthAfter(since) > 0)) {
                return;
            }
            Thread.sleep(100);
        }
    }

    private long sessionExpiries() throws IOException {
        long count = 0;
        try (Stream<Path> list = Files.list(settings.dir())) {
            for (Path each : list.filter(file -> file.getFileName().toString().startsWith("log-")).toList()) {
                for (String line : Files.readAllLines(each)) {
                    String lower = line.toLowerCase(Locale.ROOT);
                    if (lower.contains("session") && lower.contains("expired")) {
                        count++;
                    }
                }
            }
        }
        return count;
    }

    static void log(final String format, final Object... args) {
        System.out.printf("[fault %s] %s%n", java.time.LocalTime.now().format(java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss")), String.format(Locale.ROOT, format, args));
        System.out.flush();
    }

    /** The libfaketime library, or null (the clock faults are skipped, with a message); {@code -Dsnowkey.fault.libfaketime=none} forces null. */
    public static String findLibfaketime() {
        String configured = System.getProperty("snowkey.fault.libfaketime");
        if ("none".equalsIgnoreCase(configured == null ? "" : configured.trim())) {
            // Runs the experiment as on a machine without libfaketime, even where it is installed.
            return null;
        }
        List<String> candidates = new ArrayList<>();
        if (configured != null && !configured.isBlank()) {
            candidates.add(configured);
        }
        candidates.addAll(List.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1", "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
                "/usr/lib/faketime/libfaketime.so.1", "/usr/local/lib/faketime/libfaketime.so.1"));
        for (String each : candidates) {
            if (Files.isReadable(Path.of(each))) {
                return each;
            }
        }
        return null;
    }

    /** Null when PostgreSQL answers, else why not. */
    public static String postgresProblem(final String url, final String user) {
        try (Connection connection = DriverManager.getConnection(url, user, "")) {
            connection.isValid(5);
            return null;
        } catch (final SQLException ex) {
            return ex.getMessage();
        }
    }

    static Map<FaultKind, Long> countByKind(final List<Fault> faults) {
        Map<FaultKind, Long> result = new EnumMap<>(FaultKind.class);
        for (Fault each : faults) {
            result.merge(each.kind(), 1L, Long::sum);
        }
        return result;
    }

    static String seconds(final long millis) {
        return millis < 0 ? "-" : String.format(Locale.ROOT, "%.1f s", Duration.ofMillis(millis).toMillis() / 1000.0);
    }
}
