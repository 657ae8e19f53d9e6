package org.snowkey.keygen.segment.runtime;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.segment.SegmentSequence;
import org.snowkey.keygen.segment.SegmentStatus;

/**
 * The live {@link SegmentScope}s of the JVM, each kept while an owner (a ShardingSphere context, the Spring bean)
 * uses it and closed when the last owner leaves or the JVM stops.
 */
public final class SegmentRuntime {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentRuntime.class);

    /** Static for the reason {@code SnowKeyRuntime}'s is: algorithms built by ShardingSphere's SPI find shared scopes here. */
    private static final SegmentRuntime INSTANCE = new SegmentRuntime(WallClock.system(), fetchThreads(), owner());

    private final WallClock clock;

    private final ExecutorService fetchExecutor;

    private final String owner;

    /** Guarded by itself; joins and leaves only, never per key. */
    private final Map<String, Entry> scopes = new HashMap<>();

    private volatile boolean shutdownHookInstalled;

    /** Copy-on-write: added and removed with a Spring context, read once per new sequence. */
    private final List<SegmentSequenceListener> listeners = new CopyOnWriteArrayList<>();

    SegmentRuntime(final WallClock clock, final ExecutorService fetchExecutor, final String owner) {
        this.clock = clock;
        this.fetchExecutor = fetchExecutor;
        this.owner = owner;
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
     * held for {@code owner} until {@link #release(Object)}.
     */
    public SegmentScope join(final SegmentPlan plan, final Object owner) {
        installShutdownHook();
        synchronized (scopes) {
            Entry entry = scopes.get(plan.scopeKey());
            if (entry == null) {
                // Opening only builds a pool or starts a client, so it may run under the lock.
                entry = new Entry(new SegmentScope(plan, plan.allocator().open(this.owner, plan.starts()), clock, fetchExecutor, this::sequenceCreated));
                scopes.put(plan.scopeKey(), entry);
            }
            entry.owners.add(owner);
            return entry.scope;
        }
    }

    /** Leaves every scope {@code owner} joined; a scope without owners closes (its unused numbers become a gap). */
    public void release(final Object owner) {
        List<SegmentScope> closing = new ArrayList<>();
        synchronized (scopes) {
            scopes.values().removeIf(entry -> {
                if (entry.owners.remove(owner) && entry.owners.isEmpty()) {
                    closing.add(entry.scope);
                    return true;
                }
                return false;
            });
        }
        closing.forEach(SegmentRuntime::closeQuietly);
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
        synchronized (scopes) {
            return scopes.values().stream().map(each -> each.scope).toList();
        }
    }

    /** Every sequence of every live scope. */
    public List<SegmentStatus> statuses() {
        List<SegmentStatus> result = new ArrayList<>();
        scopes().forEach(each -> result.addAll(each.statuses()));
        return result;
    }

    /** Closes every scope, whoever owns it: for tests and the shutdown hook. */
    public void closeAll() {
        List<SegmentScope> closing;
        synchronized (scopes) {
            closing = scopes.values().stream().map(each -> each.scope).toList();
            scopes.clear();
        }
        closing.forEach(SegmentRuntime::closeQuietly);
    }

    private static void closeQuietly(final SegmentScope scope) {
        try {
            scope.close();
        } catch (final RuntimeException ex) {
            LOG.warn("SnowKey could not close segment allocator {} cleanly: {}", scope.allocator(), ex.toString());
        }
    }

    private void installShutdownHook() {
        if (shutdownHookInstalled || this != INSTANCE) {
            return;
        }
        synchronized (this) {
            if (!shutdownHookInstalled) {
                Runtime.getRuntime().addShutdownHook(new Thread(this::closeAll, "snowkey-close-segments"));
                shutdownHookInstalled = true;
            }
        }
    }

    private static final class Entry {

        private final SegmentScope scope;

        /** Owners by identity: two contexts that happen to be equal are still two owners. */
        private final Set<Object> owners = Collections.newSetFromMap(new IdentityHashMap<>());

        Entry(final SegmentScope scope) {
            this.scope = scope;
        }
    }
}
