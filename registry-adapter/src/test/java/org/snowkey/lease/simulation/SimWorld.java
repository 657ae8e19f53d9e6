package org.snowkey.lease.simulation;

import java.util.HashSet;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The one seeded scheduler a simulated schedule runs on: virtual time in microseconds, a queue of timed tasks
 * (renewals of every simulated instance), and the random source of every choice. Single-threaded: a task or an
 * action that waits (a store call that is slow, a generator waiting for its clock) moves virtual time on, and the
 * tasks that fell due meanwhile run late, like a thread that was descheduled. Same seed, same run.
 */
final class SimWorld {

    private final long seed;

    private final Random random;

    private final PriorityQueue<Task> tasks = new PriorityQueue<>();

    private long nowMicros;

    private long sequence;

    private final StringBuilder trace;

    /** Instances inside an action or store call right now: an interleaved action never re-enters one of them. */
    private final Set<SimInstance> busy = new HashSet<>();

    private BiConsumer<SimInstance, Set<SimInstance>> interleaver = (caller, busyNow) -> { };

    SimWorld(final long seed, final boolean traced) {
        this.seed = seed;
        this.random = new Random(seed);
        this.trace = traced ? new StringBuilder() : null;
    }

    /** What runs another instance's action in the middle of a store call: see {@link #whileInStoreCall}. */
    void interleaver(final BiConsumer<SimInstance, Set<SimInstance>> action) {
        this.interleaver = action;
    }

    /**
     * A store call of {@code caller} is in flight: another instance (none of those already on the stack) may act
     * meanwhile, which is how the simulator plays concurrent processes, e.g. two instances starting on one pool.
     */
    void whileInStoreCall(final SimInstance caller) {
        boolean added = busy.add(caller);
        try {
            interleaver.accept(caller, busy);
        } finally {
            if (added) {
                busy.remove(caller);
            }
        }
    }

    /** Marks an instance as acting (an action or a task of it is on the stack). */
    boolean enter(final SimInstance instance) {
        return busy.add(instance);
    }

    void leave(final SimInstance instance, final boolean entered) {
        if (entered) {
            busy.remove(instance);
        }
    }

    boolean isBusy(final SimInstance instance) {
        return busy.contains(instance);
    }

    void note(final String event) {
        if (trace != null) {
            trace.append(String.format("%10.3f ms  %s%n", nowMicros / 1000.0, event));
        }
    }

    String trace() {
        return trace == null ? "" : trace.toString();
    }

    long seed() {
        return seed;
    }

    Random random() {
        return random;
    }

    long nowMicros() {
        return nowMicros;
    }

    long nowMillis() {
        return nowMicros / 1000;
    }

    /** Time passes inside an action (a slow store call, a wait for the clock); due tasks run afterwards, late. */
    void pass(final long micros) {
        if (micros > 0) {
            nowMicros += micros;
        }
    }

    /** Queues a task of an instance's incarnation; it is dropped if that incarnation is gone when it falls due. */
    Task post(final long atMicros, final SimInstance owner, final int incarnation, final Runnable body) {
        Task task = new Task(Math.max(atMicros, nowMicros), sequence++, owner, incarnation, body);
        tasks.add(task);
        return task;
    }

    /** Runs every task due up to {@code targetMicros} in time order, then sets the time to it. */
    void runUntil(final long targetMicros) {
        while (!tasks.isEmpty() && tasks.peek().atMicros <= Math.max(targetMicros, nowMicros)) {
            Task task = tasks.poll();
            if (task.cancelled || !task.owner.isIncarnation(task.incarnation)) {
                continue;
            }
            nowMicros = Math.max(nowMicros, task.atMicros);
            if (task.owner.isPausedAt(nowMicros)) {
                // A stopped process runs nothing; its timers fire when it resumes.
                tasks.add(new Task(task.owner.pausedUntilMicros(), sequence++, task.owner, task.incarnation, task.body));
                continue;
            }
            boolean entered = enter(task.owner);
            try {
                task.body.run();
            } finally {
                leave(task.owner, entered);
            }
        }
        nowMicros = Math.max(nowMicros, targetMicros);
    }

    /** One timed task. */
    static final class Task implements Comparable<Task> {

        private final long atMicros;

        private final long order;

        private final SimInstance owner;

        private final int incarnation;

        private final Runnable body;

        private volatile boolean cancelled;

        Task(final long atMicros, final long order, final SimInstance owner, final int incarnation, final Runnable body) {
            this.atMicros = atMicros;
            this.order = order;
            this.owner = owner;
            this.incarnation = incarnation;
            this.body = body;
        }

        long atMicros() {
            return atMicros;
        }

        boolean cancel() {
            boolean was = cancelled;
            cancelled = true;
            return !was;
        }

        boolean isCancelled() {
            return cancelled;
        }

        @Override
        public int compareTo(final Task other) {
            int byTime = Long.compare(atMicros, other.atMicros);
            return byTime != 0 ? byTime : Long.compare(order, other.order);
        }
    }
}
