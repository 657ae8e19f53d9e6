package org.snowkey.keygen.runtime;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.GeneratorSettings;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.generator.IdGenerator;

/**
 * The JVM's SnowKey generators, one per scope. Every algorithm instance (and the Spring bean) with the same
 * scope shares one lease and one set of sequence streams, so two instances never issue on the same worker id
 * independently. Leases are released from a shutdown hook, because ShardingSphere never closes algorithms.
 * This class keeps the live scopes only (join, leave, close, shutdown); what a scope is comes from a
 * {@link ScopePlan} made by {@link ScopePlanner}, which does no I/O.
 */
public final class SnowKeyRuntime {

    private static final Logger LOG = LoggerFactory.getLogger(SnowKeyRuntime.class);

    /**
     * The one runtime of the JVM. Static because ShardingSphere creates key generate algorithms through its SPI with
     * a no-argument constructor and hands them nothing to share: algorithms of every context, and the Spring bean,
     * find the scopes they share here. Everything else is instance state, so tests can build their own runtime.
     */
    private static final SnowKeyRuntime INSTANCE = new SnowKeyRuntime(WallClock.system(),
            hook -> Runtime.getRuntime().addShutdownHook(new Thread(hook, "snowkey-release-leases")), Scope.Waiting.PARK);

    /**
     * The current generation of each scope key; a generation removes itself once its lease is released. Guarded by
     * itself, held only to look up or update the map (joins and leaves, never per id), never while a lease opens or
     * closes: a slow registry in one scope does not hold up the others.
     */
    private final Map<String, Scope> scopes = new HashMap<>();

    private final WallClock clock;

    /** Registers the shutdown hook that releases the leases (once, when the first generator is created). */
    private final Consumer<Runnable> shutdownHooks;

    /** How joiners and closers wait for a scope's open or release in another thread (see {@link Scope.Waiting}). */
    private final Scope.Waiting waiting;

    private final AtomicBoolean shutdownHookInstalled = new AtomicBoolean();

    SnowKeyRuntime(final WallClock clock, final Consumer<Runnable> shutdownHooks, final Scope.Waiting waiting) {
        this.clock = clock;
        this.shutdownHooks = shutdownHooks;
        this.waiting = waiting;
    }

    public static SnowKeyRuntime get() {
        return INSTANCE;
    }

    /**
     * The generator of the plan's scope, created (and its lease opened) on first request, without an owner: it rides
     * on the scope's owners (closed when the last one leaves) or, with none, lives until {@link #close},
     * {@link #closeAll} or JVM shutdown.
     *
     * @throws IllegalStateException when the scope already runs with other generator settings
     */
    public IdGenerator generator(final ScopePlan plan) {
        return join(plan, null, ReleaseMode.AT_JVM_SHUTDOWN);
    }

    /**
     * The generator of the plan's scope, used by {@code owner} (a ShardingSphere context, a Spring context).
     * When every owner of a scope has gone ({@link #release(Object)}), the scope is closed and its lease released.
     */
    public IdGenerator generator(final ScopePlan plan, final Object owner) {
        return join(plan, owner, ReleaseMode.AT_JVM_SHUTDOWN);
    }

    /**
     * Like {@link #generator(ScopePlan, Object)}, for an owner that promises to call {@link #release(Object)} itself,
     * also at JVM shutdown: the shutdown hook then leaves its scopes alone, so that nothing releases the lease
     * while the owner's data sources still run.
     */
    public IdGenerator generatorReleasedByOwner(final ScopePlan plan, final Object owner) {
        return join(plan, owner, ReleaseMode.BY_OWNER);
    }

    /**
     * Joins the plan's scope as {@code owner} ({@code null}: use it without owning it) and returns its open
     * generator, never one that is closing: a join that finds the scope closing waits for the release to finish and
     * opens the next generation, whose lease then starts above the released one. The lease is opened by the first
     * joiner of a generation, outside any lock other scopes need; later joiners of that generation wait for it.
     *
     * @throws IllegalStateException when the scope already runs with other generator settings
     */
    public IdGenerator join(final ScopePlan plan, final Object owner, final ReleaseMode releaseMode) {
        while (true) {
            Scope scope;
            synchronized (scopes) {
                scope = scopes.computeIfAbsent(plan.scopeKey(), key -> new Scope(key, waiting));
            }
            switch (scope.admit(plan, owner, releaseMode)) {
                case JOINED -> {
                    return scope.generator();
                }
                case OPEN_IT -> open(scope, plan);
                default -> {
                    // That generation ended after this thread found it; its key already maps to nothing or the next one.
                }
            }
        }
    }

    private void open(final Scope scope, final ScopePlan plan) {
        IdGenerator generator;
        try {
            generator = create(plan);
        } catch (final RuntimeException | Error ex) {
            forget(scope);
            scope.openFailed();
            throw ex;
        }
        scope.opened(plan, generator);
    }

    /** The owner is gone: closes each scope it was the last owner of, releasing the lease. */
    public void release(final Object owner) {
        for (Scope each : currentScopes()) {
            IdGenerator orphaned = each.leave(owner);
            if (orphaned != null) {
                finishClose(each, orphaned);
            }
        }
    }

    /**
     * Releases the lease of a scope in CLOSING, then lets the key go and wakes joiners, in that order: a join that
     * finds the key free opens a lease only after this one recorded its high-water mark.
     */
    private void finishClose(final Scope scope, final IdGenerator generator) {
        try {
            closeQuietly(scope.key(), generator);
        } finally {
            // Even when the release throws an Error: a generation left in CLOSING would park every later join and
            // close of the key for ever. The Error still reaches the caller.
            forget(scope);
            scope.closed();
        }
    }

    private void forget(final Scope scope) {
        synchronized (scopes) {
            scopes.remove(scope.key(), scope);
        }
    }

    private List<Scope> currentScopes() {
        synchronized (scopes) {
            return new ArrayList<>(scopes.values());
        }
    }

    private IdGenerator create(final ScopePlan plan) {
        installShutdownHook();
        GeneratorSettings settings = plan.settings();
        if (plan.unguardedStaticWorkerId()) {
            LOG.warn("SnowKey runs with worker id 0 because neither '{}' nor '{}' is set: this is only safe while a single instance "
                    + "generates keys; several instances will produce duplicate keys", PropertyNames.LEASE_REGISTRY, PropertyNames.WORKER_ID);
        }
        IdGenerator generator = new IdGenerator(settings.layout(), plan.leaseOpener().get(), clock,
                settings.maxTolerateTimeDifferenceMillis(), settings.maxTimeCacheMillis());
        LOG.info("SnowKey generator for scope {} created: {}", plan.scopeKey(), generator);
        return generator;
    }

    /** The generators of the scopes open now. */
    public Collection<IdGenerator> generators() {
        List<IdGenerator> result = new ArrayList<>();
        for (Scope each : currentScopes()) {
            if (each.isOpen()) {
                result.add(each.generator());
            }
        }
        return result;
    }

    /**
     * Closes the generator of one scope, whoever owns it: its lease is released and the next request creates a new
     * one. An open in flight is waited for and then closed; a close in flight is waited for. A seam for tests in this
     * package: applications close through their owners, or all at once ({@link #closeAll}).
     */
    void close(final String scopeKey) {
        Scope scope;
        synchronized (scopes) {
            scope = scopes.get(scopeKey);
        }
        if (scope != null) {
            closeIf(scope, scopeOwners -> true);
        }
    }

    /** Closes every generator, releasing each lease with its exact high-water mark. */
    public void closeAll() {
        for (Scope each : currentScopes()) {
            closeIf(each, scopeOwners -> true);
        }
    }

    /** The shutdown hook: closes every scope but those an owner releases in its own order. */
    void closeAllOnShutdown() {
        for (Scope each : currentScopes()) {
            closeIf(each, scopeOwners -> !scopeOwners.containsValue(ReleaseMode.BY_OWNER));
        }
    }

    private void closeIf(final Scope scope, final Predicate<Map<Object, ReleaseMode>> condition) {
        IdGenerator closing = scope.beginClose(condition);
        if (closing != null) {
            finishClose(scope, closing);
        }
    }

    private static void closeQuietly(final String scopeKey, final IdGenerator generator) {
        try {
            generator.close();
        } catch (final RuntimeException ex) {
            LOG.warn("SnowKey could not release the lease of scope {}: {}", scopeKey, ex.toString());
        }
    }

    private void installShutdownHook() {
        if (shutdownHookInstalled.compareAndSet(false, true)) {
            shutdownHooks.accept(this::closeAllOnShutdown);
        }
    }
}
