package org.snowkey.lease.simulation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executor;

import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.RangeAllocator;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.keygen.segment.SegmentBatch;
import org.snowkey.keygen.segment.SegmentSequence;
import org.snowkey.keygen.segment.SegmentSettings;

/**
 * One simulated schedule of segment mode, entirely determined by its seed: a few instances, each with a
 * production {@link SegmentSequence} per sequence key, over one simulated range store that allocates atomically but
 * refuses, is slow, goes down for a while, and loses answers (applied, then the call fails). Instances issue keys
 * and batches, their background fetches run when the schedule says so, they crash (dropping both buffers and any
 * queued fetch) and restart. While a store call is slow, another caller (of any instance, the same one included)
 * may act: that is how the schedule plays concurrent threads and processes.
 *
 * <p>Determinism: one thread, virtual time ({@link #clock}; the fetch retry loop parks on it), and a fetch executor
 * per incarnation that queues fetches until the schedule runs them. A caller that will need the pending fetch
 * (it wants more keys than {@link SegmentSequence#remaining()} says are in memory) first has the queue run and
 * its own fetch run in place ("inline"), so the sequence's wait on the fetch future always finds it done and never
 * blocks the real thread; a nested caller that would have to wait for a fetch already on the stack is cut to the
 * keys in memory. Hence no seam in the production code was needed. Not modelled: the fetch timeout (a caller here
 * waits as long as the fetch retries; in production it would fail after {@code segment-fetch-timeout-milliseconds},
 * which issues no key, so uniqueness is not affected); true parallel races on one sequence (the Lincheck model check
 * {@code SegmentSequenceModelCheckTest} covers those).
 *
 * <p>Invariants, checked on every key issued and after every step: no key twice across all instances and
 * incarnations; the keys of an incarnation increase (a call that starts after another one returned gets higher keys,
 * and a batch increases); every key lies in a range the store handed to that very incarnation, and whose answer
 * reached it (a lost answer is a gap); no two ranges the store handed out overlap. At the end the faults stop and
 * every live instance must issue again.
 */
final class SegmentSchedule {

    /** Deliberately broken variants, to show that the invariants catch them ({@code -Dsnowkey.simulation.segment.mutant}). */
    enum Mutant {
        /** Correct store. */
        NONE,
        /** The store now and then hands out the previous range of the key again. */
        REPEAT_RANGE,
        /** The store reads the counter, is slow, then writes it back plus the size: not one atomic step. */
        READ_THEN_WRITE
    }

    private static final String[] KEYS = {"db.t_order", "db.t_item"};

    private static final int MAX_NESTING = 2;

    private final Random random;

    private final StringBuilder trace;

    private final Mutant mutant;

    private final int steps;

    private final SegmentSimStats stats = new SegmentSimStats();

    /**
     * The first invariant broken. Recorded as well as thrown: a check that fails inside a store call (a nested caller)
     * unwinds through the sequence's fetch loop, which retries on any exception and would swallow it.
     */
    private SimulationFailure failure;

    /** Virtual time in nanoseconds; only waits and the schedule move it. */
    private long nowNanos;

    private final WallClock clock = new WallClock() {

        @Override
        public long millis() {
            return nowNanos / 1_000_000;
        }

        @Override
        public long nanoTime() {
            return nowNanos;
        }

        @Override
        public void parkNanos(final long nanos) {
            nowNanos += Math.max(1_000, nanos);
        }
    };

    private final SegmentSettings settings;

    private final Store store = new Store();

    private final List<Node> nodes = new ArrayList<>();

    /** Every key issued, per sequence key. */
    private final Map<String, Set<Long>> issued = new HashMap<>();

    private double refuseRate;

    private double loseRate;

    private double slowRate;

    private final long maxSlowNanos;

    private final double interleaving;

    private int nesting;

    /** No interleaved actions (and so no crashes) once the faults stopped: the quiet phase checks that every instance recovers. */
    private boolean quietPhase;

    SegmentSchedule(final long seed, final int steps, final boolean traced, final Mutant mutant) {
        this.random = new Random(seed);
        this.trace = traced ? new StringBuilder() : null;
        this.mutant = mutant;
        this.steps = steps;
        long minStep = 1 + random.nextInt(20);
        settings = new SegmentSettings(minStep, minStep + random.nextInt(100), 1 + random.nextInt(2_000), random.nextInt(100), 3_000);
        boolean faulty = random.nextInt(4) != 0;
        refuseRate = faulty ? random.nextDouble() * 0.3 : 0;
        loseRate = faulty ? random.nextDouble() * 0.3 : 0;
        slowRate = random.nextDouble() * 0.5;
        maxSlowNanos = 1_000_000L * (1 + random.nextInt(2_000));
        interleaving = random.nextInt(3) == 0 ? 0 : random.nextDouble() * 0.5;
        int count = 2 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
            nodes.add(new Node("i" + i));
        }
        for (String each : KEYS) {
            issued.put(each, new HashSet<>());
            store.next.put(each, 1L + random.nextInt(1_000));
            store.handed.put(each, new TreeMap<>());
        }
        note("settings " + settings + ", refuse " + refuseRate + ", lose " + loseRate + ", slow " + slowRate + " up to " + maxSlowNanos / 1_000_000
                + " ms, interleaving " + interleaving + ", " + count + " instances, mutant " + mutant);
    }

    SegmentSimStats run() {
        stats.schedules = 1;
        for (Node each : nodes) {
            each.start();
        }
        for (int step = 0; step < steps; step++) {
            stats.steps++;
            step();
            checkAll();
        }
        quiet();
        stats.simulatedMillis = nowNanos / 1_000_000;
        return stats;
    }

    String trace() {
        return trace == null ? "" : trace.toString();
    }

    private void step() {
        Node node = nodes.get(random.nextInt(nodes.size()));
        String key = KEYS[random.nextInt(KEYS.length)];
        int roll = random.nextInt(100);
        if (roll < 35) {
            issue(node, key, 1, false);
        } else if (roll < 55) {
            issue(node, key, 1 + random.nextInt((int) Math.min(Integer.MAX_VALUE / 4, settings.maxStep() * 3)), true);
        } else if (roll < 67) {
            if (node.running && !node.executor.queued.isEmpty()) {
                note(node + " background fetches run (" + node.executor.queued.size() + ")");
                node.executor.runQueued();
            }
        } else if (roll < 77) {
            long millis = random.nextInt((int) Math.min(10_000, settings.targetLifetimeMillis() * 2 + 1));
            note("time passes " + millis + " ms");
            nowNanos += millis * 1_000_000;
        } else if (roll < 83) {
            crash(node);
        } else if (roll < 93) {
            if (!node.running) {
                node.start();
                stats.restarts++;
            }
        } else if (roll < 97) {
            long millis = random.nextInt(3_000);
            store.downUntilNanos = nowNanos + millis * 1_000_000;
            stats.outages++;
            note("store down for " + millis + " ms");
        } else {
            note("store faults pause");
            refuseRate = 0;
            loseRate = 0;
        }
    }

    private void crash(final Node node) {
        if (node.running) {
            note(node + " crashes");
            node.crash();
            stats.crashes++;
        }
    }

    /**
     * One call of a caller thread of {@code node}: {@code nextId()}, or {@code nextIds(count)} when {@code batch}.
     * Keys are checked as they come back.
     */
    private void issue(final Node node, final String key, final int wanted, final boolean batch) {
        if (!node.running) {
            return;
        }
        SegmentSequence sequence = node.sequences.get(key);
        int count = wanted;
        long inMemory = sequence.remaining();
        boolean needsFetch = count > inMemory;
        if (needsFetch && node.fetchOnStack.contains(key)) {
            // This caller would wait for the fetch already on the stack; a real thread would block on it. Take what is in memory.
            if (inMemory == 0) {
                return;
            }
            count = (int) inMemory;
        }
        needsFetch = count > inMemory;
        int incarnation = node.incarnation;
        long floor = node.highestReturned.getOrDefault(key, 0L);
        boolean wasInline = node.executor.inline;
        if (needsFetch) {
            node.executor.runQueued();
            node.executor.inline = true;
        }
        long[] keys;
        try {
            if (batch || count > 1) {
                SegmentBatch got = sequence.nextIds(count);
                keys = new long[got.size()];
                for (int i = 0; i < keys.length; i++) {
                    keys[i] = got.key(i);
                }
                stats.batches++;
            } else {
                keys = new long[] {sequence.nextId()};
            }
        } catch (final RangeUnavailableException ex) {
            if (node.incarnation != incarnation || !node.running) {
                note(node + " (crashed meanwhile) call failed: " + ex.getMessage());
                return;
            }
            throw fail(node + " threw on a call for " + count + " keys of " + key + ": " + ex.getMessage(), ex);
        } finally {
            if (node.incarnation == incarnation) {
                node.executor.inline = wasInline;
            }
        }
        note(node + "#" + incarnation + " " + key + " got " + (keys.length == 1 ? String.valueOf(keys[0]) : keys.length + " keys " + keys[0] + ".." + keys[keys.length - 1]));
        if (keys.length != count) {
            throw fail(node + " asked for " + count + " keys of " + key + " and got " + keys.length);
        }
        long previous = floor;
        for (long each : keys) {
            stats.keys++;
            stats.checks += 3;
            if (each <= previous) {
                throw fail(node + "#" + incarnation + " issued " + each + " of " + key + " after " + previous
                        + ": keys of an incarnation do not increase");
            }
            previous = each;
            if (!issued.get(key).add(each)) {
                throw fail("key " + each + " of " + key + " issued twice (last by " + node + "#" + incarnation + ")");
            }
            Map.Entry<Long, Handed> range = store.handed.get(key).floorEntry(each);
            if (range == null || each > range.getValue().last || range.getValue().owner != node || range.getValue().incarnation != incarnation
                    || range.getValue().lost) {
                throw fail(node + "#" + incarnation + " issued " + each + " of " + key + ", which lies in no range the store handed to it"
                        + (range == null ? "" : " (nearest below: " + range.getValue() + ")"));
            }
        }
        if (node.incarnation == incarnation) {
            node.highestReturned.merge(key, previous, Math::max);
        }
    }

    private SimulationFailure fail(final String message) {
        return fail(message, null);
    }

    private SimulationFailure fail(final String message, final Throwable cause) {
        SimulationFailure result = new SimulationFailure(message, cause);
        if (failure == null) {
            failure = result;
        }
        return result;
    }

    /** No two ranges the store handed out overlap (also those whose answer was lost), and nothing failed on the way. */
    private void checkAll() {
        if (failure != null) {
            throw failure;
        }
        for (String key : KEYS) {
            stats.checks++;
            if (store.overlap.get(key) != null) {
                throw fail("the store handed out overlapping ranges of " + key + ": " + store.overlap.get(key));
            }
        }
        for (String key : KEYS) {
            long lastEnd = 0;
            for (Handed each : store.handed.get(key).values()) {
                stats.checks++;
                if (each.first <= lastEnd) {
                    throw fail("the store handed out overlapping ranges of " + key + ": " + each + " starts at or below " + lastEnd);
                }
                lastEnd = each.last;
            }
        }
    }

    /** The faults stop; every instance is started and must issue keys and a batch of each sequence key again. */
    private void quiet() {
        note("quiet phase");
        quietPhase = true;
        refuseRate = 0;
        loseRate = 0;
        store.downUntilNanos = 0;
        for (Node each : nodes) {
            if (!each.running) {
                each.start();
            }
        }
        for (Node each : nodes) {
            for (String key : KEYS) {
                long before = stats.keys;
                issue(each, key, 1, false);
                issue(each, key, (int) Math.min(1_000, settings.maxStep() * 2 + 1), true);
                if (stats.keys == before) {
                    throw fail(each + " did not issue " + key + " again once the store was healthy");
                }
            }
        }
        checkAll();
    }

    /** While a store call is slow, another caller may act (nested at most {@link #MAX_NESTING} deep), or its process may crash. */
    private void meanwhile() {
        if (quietPhase || nesting >= MAX_NESTING || interleaving <= 0 || random.nextDouble() >= interleaving) {
            return;
        }
        nesting++;
        try {
            stats.interleavings++;
            Node other = nodes.get(random.nextInt(nodes.size()));
            String key = KEYS[random.nextInt(KEYS.length)];
            int roll = random.nextInt(10);
            note(other + " acts while a store call is in flight");
            if (roll == 0) {
                crash(other);
            } else if (roll < 5) {
                issue(other, key, 1, false);
            } else {
                issue(other, key, 1 + random.nextInt((int) Math.min(1_000, settings.maxStep() * 2)), true);
            }
        } finally {
            nesting--;
        }
    }

    private void note(final String event) {
        if (trace != null) {
            trace.append(String.format("%12.3f ms  %s%n", nowNanos / 1e6, event));
        }
    }

    /** A range the store handed out: to whom, and whether the answer reached it. */
    private record Handed(long first, long last, Node owner, int incarnation, boolean lost) {

        @Override
        public String toString() {
            return first + ".." + last + " to " + owner + "#" + incarnation + (lost ? " (answer lost)" : "");
        }
    }

    /** The range store: a counter per key, changed in one atomic step per allocation (unless a mutant says otherwise). */
    private final class Store {

        private final Map<String, Long> next = new HashMap<>();

        private final Map<String, TreeMap<Long, Handed>> handed = new HashMap<>();

        private long downUntilNanos;

        /** The first overlap per key, found when the range was recorded (a repeated range would replace its twin in the map). */
        private final Map<String, String> overlap = new HashMap<>();

        NumberRange allocate(final Node caller, final int incarnation, final String key, final long size) {
            stats.storeCalls++;
            if (nowNanos < downUntilNanos) {
                stats.fault("down");
                throw new RangeUnavailableException("simulated store down");
            }
            if (random.nextDouble() < refuseRate) {
                stats.fault("refused");
                note(caller + " allocation of " + key + " refused");
                throw new RangeUnavailableException("simulated store refused");
            }
            slow();
            long first = next.get(key);
            if (mutant == Mutant.READ_THEN_WRITE) {
                slow();
            }
            if (mutant == Mutant.REPEAT_RANGE && random.nextInt(20) == 0 && !handed.get(key).isEmpty()) {
                first = handed.get(key).lastEntry().getValue().first;
            }
            long last = Math.min(NumberRange.MAX_KEY, first + size - 1);
            NumberRange range = new NumberRange(first, last);
            next.put(key, mutant == Mutant.READ_THEN_WRITE ? first + size : Math.max(next.get(key), last + 1));
            boolean dead = caller.incarnation != incarnation || !caller.running;
            boolean lost = dead || random.nextDouble() < loseRate;
            Handed record = new Handed(first, last, caller, incarnation, lost);
            Map.Entry<Long, Handed> below = handed.get(key).floorEntry(last);
            if (below != null && below.getValue().last >= first && !overlap.containsKey(key)) {
                overlap.put(key, record + " overlaps " + below.getValue());
            }
            handed.get(key).put(first, record);
            stats.ranges++;
            note(caller + "#" + incarnation + " allocated " + range + " of " + key + (lost ? ", answer lost" : ""));
            if (!lost) {
                slow();
                lost = caller.incarnation != incarnation || !caller.running;
                if (lost) {
                    handed.get(key).put(first, new Handed(first, last, caller, incarnation, true));
                }
            }
            if (lost) {
                stats.fault("lost answer");
                throw new RangeUnavailableException("simulated store: the allocation was applied, then the call failed");
            }
            return range;
        }

        private void slow() {
            if (random.nextDouble() < slowRate) {
                stats.fault("slow");
                nowNanos += (long) (random.nextDouble() * maxSlowNanos);
                meanwhile();
            }
        }
    }

    /**
     * The fetch executor of one incarnation: queues fetches until the schedule runs them (the background thread),
     * or runs them in place while a caller that needs one is on the stack. A crashed incarnation's queue is dropped.
     */
    private static final class FetchExecutor implements Executor {

        private final ArrayDeque<Runnable> queued = new ArrayDeque<>();

        private boolean inline;

        private boolean dead;

        @Override
        public void execute(final Runnable command) {
            if (dead) {
                return;
            }
            if (inline) {
                command.run();
            } else {
                queued.add(command);
            }
        }

        void runQueued() {
            Runnable next;
            while (!dead && (next = queued.poll()) != null) {
                next.run();
            }
        }
    }

    /** One simulated process: incarnations of it share its name, nothing else. */
    private final class Node {

        private final String name;

        private int incarnation;

        private boolean running;

        private FetchExecutor executor;

        private final Map<String, SegmentSequence> sequences = new LinkedHashMap<>();

        /** Per sequence key, the highest key returned to a call that has completed in this incarnation. */
        private final Map<String, Long> highestReturned = new HashMap<>();

        /** Sequence keys whose fetch is in a store call on the stack right now. */
        private final Set<String> fetchOnStack = new HashSet<>();

        Node(final String name) {
            this.name = name;
        }

        void start() {
            incarnation++;
            running = true;
            executor = new FetchExecutor();
            highestReturned.clear();
            fetchOnStack.clear();
            sequences.clear();
            int mine = incarnation;
            for (String each : KEYS) {
                RangeAllocator allocator = new RangeAllocator() {

                    @Override
                    public NumberRange allocate(final String key, final long size) {
                        boolean outer = fetchOnStack.add(key);
                        try {
                            return store.allocate(Node.this, mine, key, size);
                        } finally {
                            if (outer && incarnation == mine) {
                                fetchOnStack.remove(key);
                            }
                        }
                    }

                    @Override
                    public String describe() {
                        return "simulated store";
                    }
                };
                sequences.put(each, new SegmentSequence(each, allocator, settings, clock, executor));
            }
            note(this + "#" + incarnation + " starts");
        }

        /** The process dies: its buffers, queued fetches and callers are gone; a fetch in a store call never sees its answer. */
        void crash() {
            running = false;
            executor.dead = true;
            executor.queued.clear();
            sequences.values().forEach(SegmentSequence::close);
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
