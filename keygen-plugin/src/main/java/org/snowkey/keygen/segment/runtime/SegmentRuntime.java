package org.snowkey.keygen.segment.runtime;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.runtime.JvmShutdown;
import org.snowkey.keygen.runtime.ReleaseMode;
import org.snowkey.keygen.runtime.ScopeResources;
import org.snowkey.keygen.runtime.Scopes;
import org.snowkey.keygen.segment.SegmentSequence;
import org.snowkey.keygen.segment.SegmentStatus;

/**
 * The live {@link SegmentScope}s of the JVM, each kept while an owner (a ShardingSphere context, the Spring bean)
 * uses it and closed when the last owner leaves or the JVM stops. The lifecycle (join, leave, close, shutdown) is
 * {@link Scopes}', the same as the snowflake's; this class says what a segment generation holds: the plan's open
 * allocator with the sequences of its keys.
 */
public final class SegmentRuntime {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentRuntime.class);

    /** Static for the reason {@code SnowflakeRuntime}'s is: algorithms built by ShardingSphere's SPI find shared scopes here. */
    private static final SegmentRuntime INSTANCE = new SegmentRuntime(WallClock.system(), fetchThreads(), owner(), JvmShutdown::register, Scopes.Waiting.PARK);

    private final Scopes<SegmentPlan, SegmentScope> scopes;

    /** Copy-on-write: added and removed with a Spring context, read once per new sequence. */
    private final List<SegmentSequenceListener> listeners = new CopyOnWriteArrayList<>();

    /** A runtime of its own, without a shutdown hook (tests). */
    SegmentRuntime(final WallClock clock, final Executor fetchExecutor, final String owner) {
        this(clock, fetchExecutor, owner, hook -> { }, Scopes.Waiting.PARK);
    }

    SegmentRuntime(final WallClock clock, final Executor fetchExecutor, final String owner, final Consumer<Runnable> shutdownHooks,
                   final Scopes.Waiting waiting) {
        scopes = new Scopes<>(new SegmentResources(clock, fetchExecutor, owner), shutdownHooks, waiting);
    }

    public static SegmentRuntime get() {
        return INSTANCE;
    }

    /**
     * Fetches run on threads of their own, as {@code SegmentSequence} requires: a fetch retries through an allocator
     * outage and must not hold an inserting thread. Daemon threads, so a forgotten scope never keeps the JVM alive.
     */
    private static ExecutorService fetchThreads() {
        AtomicInteger count = new AtomicInteger();
        return Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "snowkey-segment-fetch-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Who takes the ranges, in the range log: {@code pid@host}, as the JVM names itself. */
    private static String owner() {
        String name = ManagementFactory.getRuntimeMXBean().getName();
        return name.length() > 255 ? name.substring(0, 255) : name;
    }

    /**
     * The scope of the plan, opened (no I/O: its pool or client connects on the first allocation) on first request, and
     * held for {@code owner} until {@link #release(Object)}; never a scope that is closing: a join that finds it
     * closing waits for the close, then opens the next one.
     */
    public SegmentScope join(final SegmentPlan plan, final Object owner) {
        return scopes.join(plan, owner, ReleaseMode.AT_JVM_SHUTDOWN);
    }

    /** Leaves every scope {@code owner} joined; a scope without owners closes (its unused numbers become a gap). */
    public void release(final Object owner) {
        scopes.release(owner);
    }

    /**
     * Tells {@code listener} of every sequence any scope creates from now on; sequences that exist already are in
     * {@link #scopes()}. A listener added twice is told twice.
     */
    public void addSequenceListener(final SegmentSequenceListener listener) {
        listeners.add(listener);
    }

    public void removeSequenceListener(final SegmentSequenceListener listener) {
        listeners.remove(listener);
    }

    /** Each listener on its own: one that fails is logged and fails neither the others nor the INSERT that created the sequence. */
    private void sequenceCreated(final SegmentScope scope, final SegmentSequence sequence) {
        for (SegmentSequenceListener each : listeners) {
            try {
                each.created(scope, sequence);
            } catch (final RuntimeException ex) {
                LOG.warn("SnowKey segment sequence '{}': a sequence listener failed: {}", sequence.key(), ex.toString());
            }
        }
    }

    /** Every live scope, for health and metrics. */
    public List<SegmentScope> scopes() {
        return scopes.open();
    }

    /** Every sequence of every live scope. */
    public List<SegmentStatus> statuses() {
        List<SegmentStatus> result = new ArrayList<>();
        scopes().forEach(each -> result.addAll(each.statuses()));
        return result;
    }

    /** Closes every scope, whoever owns it: for tests and the shutdown hook. */
    public void closeAll() {
        scopes.closeAll();
    }

    /** A segment generation: the plan's open allocator with a sequence per key; opening builds a pool or client, no I/O yet. */
    private final class SegmentResources implements ScopeResources<SegmentPlan, SegmentScope> {

        private final WallClock clock;

        private final Executor fetchExecutor;

        /** Who takes the ranges, written into the range log. */
        private final String owner;

        SegmentResources(final WallClock clock, final Executor fetchExecutor, final String owner) {
            this.clock = clock;
            this.fetchExecutor = fetchExecutor;
            this.owner = owner;
        }

        @Override
        public String scopeKey(final SegmentPlan plan) {
            return plan.scopeKey();
        }

        @Override
        public SegmentScope open(final SegmentPlan plan) {
            return new SegmentScope(plan, plan.allocator().open(owner, plan.starts()), clock, fetchExecutor, SegmentRuntime.this::sequenceCreated);
        }

        /** Nothing to check: everything a segment scope issues by is in its scope key. */
        @Override
        public void checkJoin(final String scopeKey, final SegmentPlan opened, final SegmentPlan joining) {
        }

        @Override
        public void close(final String scopeKey, final SegmentScope scope) {
            scope.close();
        }
    }
}
