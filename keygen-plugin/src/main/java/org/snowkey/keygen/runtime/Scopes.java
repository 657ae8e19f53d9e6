package org.snowkey.keygen.runtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live scopes of one generator type: one {@link Generation} per scope key, joined by owners (ShardingSphere
 * contexts, Spring contexts) and closed when the last owner leaves, on request, or at JVM shutdown. Opening and
 * closing run outside every lock, by the one thread that moved the generation's state; a generation that ended is
 * replaced by a fresh one on the next join. What a generation holds, and how it is opened and closed, comes from
 * the {@link ScopeResources}. See docs/design.md, "Scopes".
 *
 * @param <P> the plan a scope is joined with
 * @param <R> what an open generation holds
 */
public final class Scopes<P, R> {

    private static final Logger LOG = LoggerFactory.getLogger(Scopes.class);

    /**
     * How a thread waits for another to move a generation's state on. {@code PARK} (on a latch) in production.
     * {@code SPIN} (yield until the state changes) only under the Lincheck model checker: Lincheck 3.7 does not
     * schedule a thread parked inside {@code CountDownLatch} or {@code Object.wait} here and reports the execution as
     * hung, while it models a yielding loop over a volatile read exactly. The states and their moves are the same in both.
     */
    public enum Waiting { PARK, SPIN }

    private final ScopeResources<P, R> resources;

    /**
     * The current generation of each scope key; a generation removes itself once it is closed. Guarded by itself, held
     * only to look up or update the map (joins and leaves, never per key), never while a generation opens or closes: a
     * slow store in one scope does not hold up the others.
     */
    private final Map<String, Generation<P, R>> generations = new HashMap<>();

    /** Registers the shutdown hook (once, when the first generation opens). */
    private final Consumer<Runnable> shutdownHooks;

    private final Waiting waiting;

    /**
     * Set once the shutdown hook is registered, never before: a registration the JVM refused (it was already stopping) is
     * tried again by the next open. Guarded by {@link #shutdownHookLock}, held while registering (no I/O; only opens
     * take it).
     */
    private boolean shutdownHookInstalled;

    private final Object shutdownHookLock = new Object();

    /** Set when the shutdown hook starts: from then on, owners the hook releases count as gone ({@link #release}). */
    private volatile boolean shutdownHookRan;

    public Scopes(final ScopeResources<P, R> resources, final Consumer<Runnable> shutdownHooks, final Waiting waiting) {
        this.resources = resources;
        this.shutdownHooks = shutdownHooks;
        this.waiting = waiting;
    }

    /**
     * Joins the plan's scope as {@code owner} ({@code null}: use it without owning it) and returns what its open
     * generation holds, never a generation that is closing: a join that finds the scope closing waits for the close to
     * finish and opens the next generation. The first joiner of a generation opens it, outside any lock other scopes
     * need; later joiners of that generation wait for it.
     *
     * @throws IllegalStateException when the open generation cannot take the plan ({@link ScopeResources#checkJoin})
     */
    public R join(final P plan, final Object owner, final ReleaseMode releaseMode) {
        String key = resources.scopeKey(plan);
        while (true) {
            Generation<P, R> generation;
            synchronized (generations) {
                generation = generations.computeIfAbsent(key, each -> new Generation<>(each, waiting, resources));
            }
            switch (generation.admit(plan, owner, releaseMode)) {
                case JOINED -> {
                    return generation.resource();
                }
                case OPEN_IT -> open(generation, plan);
                default -> {
                    // That generation ended after this thread found it; its key already maps to nothing or the next one.
                }
            }
        }
    }

    private void open(final Generation<P, R> generation, final P plan) {
        R resource;
        try {
            installShutdownHook();
            resource = resources.open(plan);
        } catch (final RuntimeException | Error ex) {
            forget(generation);
            generation.openFailed();
            throw ex;
        }
        generation.opened(plan, resource);
    }

    /**
     * The owner is gone: closes each generation it was the last owner of. Once the shutdown hook has run, also each
     * generation the hook left to this owner ({@link ReleaseMode#BY_OWNER}) and that has no such owner left: the others
     * count on the hook, which has passed, and nothing else would release it.
     */
    public void release(final Object owner) {
        forEachCurrent(each -> {
            R orphaned = each.leave(owner, (left, owners) -> owners.isEmpty()
                    || shutdownHookRan && left == ReleaseMode.BY_OWNER && !owners.containsValue(ReleaseMode.BY_OWNER));
            if (orphaned != null) {
                finishClose(each, orphaned);
            }
        });
    }

    /**
     * Closes one scope's open generation, whoever owns it; the next join opens a new one. An open in flight is waited
     * for and then closed; a close in flight is waited for.
     */
    public void close(final String scopeKey) {
        Generation<P, R> generation;
        synchronized (generations) {
            generation = generations.get(scopeKey);
        }
        if (generation != null) {
            closeIf(generation, owners -> true);
        }
    }

    /** Closes every generation, whoever owns it. */
    public void closeAll() {
        forEachCurrent(each -> closeIf(each, owners -> true));
    }

    /** The shutdown hook: closes every generation but those an owner closes in its own order ({@link ReleaseMode#BY_OWNER}). */
    public void closeAllOnShutdown() {
        // Before the first check, so that an owner's release either finds it set or comes before the check sees its owners.
        shutdownHookRan = true;
        forEachCurrent(each -> closeIf(each, owners -> !owners.containsValue(ReleaseMode.BY_OWNER)));
    }

    /** What the generations open now hold. */
    public List<R> open() {
        List<R> result = new ArrayList<>();
        for (Generation<P, R> each : current()) {
            if (each.isOpen()) {
                result.add(each.resource());
            }
        }
        return result;
    }

    private void closeIf(final Generation<P, R> generation, final Predicate<Map<Object, ReleaseMode>> condition) {
        R closing = generation.beginClose(condition);
        if (closing != null) {
            finishClose(generation, closing);
        }
    }

    /**
     * Closes a generation in CLOSING, then lets the key go and wakes joiners, in that order: a join that finds the key
     * free opens the next generation only after this one is closed (a static lease has recorded its high-water mark).
     */
    private void finishClose(final Generation<P, R> generation, final R resource) {
        try {
            resources.close(generation.key(), resource);
        } catch (final RuntimeException ex) {
            LOG.warn("SnowKey could not close scope {} cleanly: {}", generation.key(), ex.toString());
        } finally {
            // Even when the close throws an Error: a generation left in CLOSING would park every later join and close of
            // the key for ever. The Error still reaches the caller.
            forget(generation);
            generation.closed();
        }
    }

    private void forget(final Generation<P, R> generation) {
        synchronized (generations) {
            generations.remove(generation.key(), generation);
        }
    }

    /**
     * Runs {@code action} on each current generation, every one of them even when one throws an Error (its close
     * failed): the others still close. The first Error is rethrown at the end, the later ones suppressed in it.
     */
    private void forEachCurrent(final Consumer<Generation<P, R>> action) {
        Error first = null;
        for (Generation<P, R> each : current()) {
            try {
                action.accept(each);
            } catch (final Error ex) {
                if (first == null) {
                    first = ex;
                } else {
                    first.addSuppressed(ex);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private List<Generation<P, R>> current() {
        synchronized (generations) {
            return new ArrayList<>(generations.values());
        }
    }

    private void installShutdownHook() {
        synchronized (shutdownHookLock) {
            if (!shutdownHookInstalled) {
                shutdownHooks.accept(this::closeAllOnShutdown);
                shutdownHookInstalled = true;
            }
        }
    }
}
