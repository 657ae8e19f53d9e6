package org.snowkey.keygen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.snowkey.keygen.testing.Waits.awaitParked;
import static org.snowkey.keygen.testing.Waits.awaitUninterruptibly;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The lifecycle of {@link Scopes} over resources that only remember what happened to them: owners, release modes, the
 * shutdown hook, and failures or interrupts at each step (docs/design.md, "Scopes"). Whatever a step throws, every
 * generation that should end ends, and none is left open for an owner that has gone.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ScopesLifecycleTest {

    /** A plan: the scope key and a setting joiners of one generation must share. */
    private record Plan(String key, String layout) {
    }

    /** What a generation holds: it only remembers that it was closed. */
    private static final class Resource {

        private final Plan plan;

        private volatile boolean closed;

        Resource(final Plan plan) {
            this.plan = plan;
        }
    }

    /** An Error out of a close (a class that no longer loads at shutdown, a stack overflow). */
    private static final class CloseError extends Error {

        CloseError() {
            super("the close failed (test)");
        }
    }

    /** Resources whose open and close can be made to fail or to wait, per scope key. */
    private static final class Resources implements ScopeResources<Plan, Resource> {

        private final List<Resource> opened = new CopyOnWriteArrayList<>();

        private final Set<String> closeThrowsError = java.util.concurrent.ConcurrentHashMap.newKeySet();

        private volatile CountDownLatch openStarted = new CountDownLatch(0);

        private volatile CountDownLatch letOpen = new CountDownLatch(0);

        private volatile CountDownLatch closeStarted = new CountDownLatch(0);

        private volatile CountDownLatch letClose = new CountDownLatch(0);

        private final java.util.concurrent.atomic.AtomicInteger closes = new java.util.concurrent.atomic.AtomicInteger();

        @Override
        public String scopeKey(final Plan plan) {
            return plan.key();
        }

        @Override
        public Resource open(final Plan plan) {
            openStarted.countDown();
            awaitUninterruptibly(letOpen);
            Resource result = new Resource(plan);
            opened.add(result);
            return result;
        }

        @Override
        public void checkJoin(final String scopeKey, final Plan opening, final Plan joining) {
            if (!opening.layout().equals(joining.layout())) {
                throw new IllegalStateException(scopeKey + " runs with " + opening.layout() + ", not " + joining.layout());
            }
        }

        @Override
        public void close(final String scopeKey, final Resource resource) {
            closes.incrementAndGet();
            closeStarted.countDown();
            awaitUninterruptibly(letClose);
            resource.closed = true;
            if (closeThrowsError.contains(scopeKey)) {
                throw new CloseError();
            }
        }
    }

    private final Resources resources = new Resources();

    private final List<Runnable> hooks = new ArrayList<>();

    private final Scopes<Plan, Resource> scopes = new Scopes<>(resources, hooks::add, Scopes.Waiting.PARK);

    private static final Plan A = new Plan("a", "layout-1");

    private static final Plan B = new Plan("b", "layout-1");

    private static final Plan C = new Plan("c", "layout-1");

    @Test
    void anErrorClosingOneScopeOfAnOwnerStillReleasesItsOtherScopes() {
        Object owner = new Object();
        Resource a = scopes.join(A, owner, ReleaseMode.AT_JVM_SHUTDOWN);
        Resource b = scopes.join(B, owner, ReleaseMode.AT_JVM_SHUTDOWN);
        Resource c = scopes.join(C, owner, ReleaseMode.AT_JVM_SHUTDOWN);
        resources.closeThrowsError.add("a");
        resources.closeThrowsError.add("b");

        assertThrows(CloseError.class, () -> scopes.release(owner), "the Error reaches the caller");
        assertTrue(a.closed && b.closed && c.closed, "every scope the owner was the last owner of is closed, not only those before the Error");
        assertTrue(scopes.open().isEmpty(), String.valueOf(scopes.open()));
    }

    @Test
    void anErrorClosingOneScopeStillClosesEveryOtherScope() {
        Resource a = scopes.join(A, new Object(), ReleaseMode.AT_JVM_SHUTDOWN);
        Resource b = scopes.join(B, new Object(), ReleaseMode.AT_JVM_SHUTDOWN);
        Resource c = scopes.join(C, new Object(), ReleaseMode.AT_JVM_SHUTDOWN);
        resources.closeThrowsError.add("a");
        resources.closeThrowsError.add("b");

        assertThrows(CloseError.class, scopes::closeAll);
        assertTrue(a.closed && b.closed && c.closed);
        assertTrue(scopes.open().isEmpty());
    }

    @Test
    void anErrorClosingOneScopeAtShutdownStillClosesEveryOtherScope() {
        Resource a = scopes.join(A, new Object(), ReleaseMode.AT_JVM_SHUTDOWN);
        Resource b = scopes.join(B, new Object(), ReleaseMode.AT_JVM_SHUTDOWN);
        Resource c = scopes.join(C, new Object(), ReleaseMode.AT_JVM_SHUTDOWN);
        resources.closeThrowsError.add("a");
        resources.closeThrowsError.add("b");

        assertEquals(1, hooks.size(), "the hook is registered once, with the first open");
        assertThrows(CloseError.class, hooks.get(0)::run);
        assertTrue(a.closed && b.closed && c.closed);
    }

    /**
     * A Spring bean and a ShardingSphere context (one the Spring context never closes, e.g. a data source behind the
     * {@code jdbc:shardingsphere:} driver) on one scope: the hook leaves the scope to the bean, whose release at its
     * own shutdown must then close it, as nothing else will.
     */
    @Test
    void afterTheHookLeftAScopeToItsSpringOwnerThatOwnersReleaseClosesIt() {
        Object springContext = new Object();
        Object shardingSphereContext = new Object();
        Resource a = scopes.join(A, springContext, ReleaseMode.BY_OWNER);
        assertSame(a, scopes.join(A, shardingSphereContext, ReleaseMode.AT_JVM_SHUTDOWN));

        scopes.closeAllOnShutdown();
        assertFalse(a.closed, "the hook leaves a scope with an owner that releases it itself");
        scopes.release(springContext);
        assertTrue(a.closed, "after the hook, the owner's release is the last chance to release the scope");
        assertTrue(scopes.open().isEmpty());
    }

    @Test
    void beforeTheHookAReleaseLeavesAScopeOtherOwnersStillUse() {
        Object springContext = new Object();
        Object shardingSphereContext = new Object();
        Resource a = scopes.join(A, springContext, ReleaseMode.BY_OWNER);
        scopes.join(A, shardingSphereContext, ReleaseMode.AT_JVM_SHUTDOWN);

        scopes.release(springContext);
        assertFalse(a.closed, "the ShardingSphere context still uses it");
        scopes.closeAllOnShutdown();
        assertTrue(a.closed, "left with owners the hook releases, the hook releases it");
    }

    /**
     * After the hook, only the release of an owner the hook left the scope to closes a scope others still use: two
     * ShardingSphere contexts that joined a scope after the hook (INSERTs while the JVM stops) keep it until the last leaves.
     */
    @Test
    void afterTheHookAContextLeavingAScopeAnotherContextUsesLeavesItOpen() {
        scopes.join(B, new Object(), ReleaseMode.AT_JVM_SHUTDOWN);
        scopes.closeAllOnShutdown();
        Object first = new Object();
        Object second = new Object();
        Resource a = scopes.join(A, first, ReleaseMode.AT_JVM_SHUTDOWN);
        scopes.join(A, second, ReleaseMode.AT_JVM_SHUTDOWN);

        scopes.release(first);
        assertFalse(a.closed, "the second context still uses it");
        scopes.release(second);
        assertTrue(a.closed);
    }

    /** One owner, both a ShardingSphere context and a Spring bean: the strongest mode wins, whichever joined first. */
    @Test
    void anOwnerThatJoinedWithBothModesIsLeftToReleaseTheScopeItself() {
        Object owner = new Object();
        Resource a = scopes.join(A, owner, ReleaseMode.BY_OWNER);
        scopes.join(A, owner, ReleaseMode.AT_JVM_SHUTDOWN);
        Resource b = scopes.join(B, owner, ReleaseMode.AT_JVM_SHUTDOWN);
        scopes.join(B, owner, ReleaseMode.BY_OWNER);

        scopes.closeAllOnShutdown();
        assertFalse(a.closed, "BY_OWNER then AT_JVM_SHUTDOWN");
        assertFalse(b.closed, "AT_JVM_SHUTDOWN then BY_OWNER");
        scopes.release(owner);
        assertTrue(a.closed && b.closed, "one release of an owner that joined twice closes its scopes");
    }

    /** A join refused for its plan does not make its owner an owner: that owner's scope would never close otherwise. */
    @Test
    void aJoinRefusedForItsPlanOwnsNothing() {
        Object first = new Object();
        Object refused = new Object();
        Resource a = scopes.join(A, first, ReleaseMode.AT_JVM_SHUTDOWN);
        assertThrows(IllegalStateException.class, () -> scopes.join(new Plan("a", "layout-2"), refused, ReleaseMode.BY_OWNER));

        scopes.release(first);
        assertTrue(a.closed, "the refused joiner did not become an owner");
    }

    /**
     * A shutdown hook that could not be registered (the JVM already stopping refuses it) is not taken as registered:
     * the open fails, and a later open registers it, so the scopes it opens are closed at shutdown.
     */
    @Test
    void aShutdownHookThatCouldNotBeRegisteredIsRegisteredByALaterOpen() {
        AtomicInteger attempts = new AtomicInteger();
        List<Runnable> registered = new ArrayList<>();
        Scopes<Plan, Resource> refusingOnce = new Scopes<>(resources, hook -> {
            if (attempts.incrementAndGet() == 1) {
                throw new IllegalStateException("Shutdown in progress (test)");
            }
            registered.add(hook);
        }, Scopes.Waiting.PARK);
        assertThrows(IllegalStateException.class, () -> refusingOnce.join(A, new Object(), ReleaseMode.AT_JVM_SHUTDOWN));
        assertTrue(refusingOnce.open().isEmpty(), "an open that could not register the hook opens nothing");

        Resource a = refusingOnce.join(A, new Object(), ReleaseMode.AT_JVM_SHUTDOWN);
        assertEquals(1, registered.size(), "the next open registers the hook");
        registered.get(0).run();
        assertTrue(a.closed, "the hook closes the scope opened after the refused registration");
    }

    /**
     * A close interrupted while another thread opens the scope still closes what opens, and keeps the interrupt: an
     * interrupted close that gave up would leave open a scope its caller was told is closed, and skip the others.
     */
    @Test
    void anInterruptedCloseStillClosesTheScopeItFoundOpeningAndKeepsTheInterrupt() throws Exception {
        Resource b = scopes.join(B, new Object(), ReleaseMode.AT_JVM_SHUTDOWN);
        resources.openStarted = new CountDownLatch(1);
        resources.letOpen = new CountDownLatch(1);
        AtomicReference<Resource> opened = new AtomicReference<>();
        Thread opener = new Thread(() -> opened.set(scopes.join(A, new Object(), ReleaseMode.AT_JVM_SHUTDOWN)), "opener");
        opener.start();
        resources.openStarted.await();
        AtomicReference<Throwable> closeFailure = new AtomicReference<>();
        AtomicBoolean keptInterrupt = new AtomicBoolean();
        Thread closer = new Thread(() -> {
            try {
                scopes.closeAll();
            } catch (final RuntimeException ex) {
                closeFailure.set(ex);
            }
            keptInterrupt.set(Thread.currentThread().isInterrupted());
        }, "closer");
        closer.start();
        awaitParked(closer);
        closer.interrupt();
        // Let the open finish only once the closer has seen its interrupt (it returns at once if it gives up).
        closer.join(200);
        resources.letOpen.countDown();
        closer.join();
        opener.join();

        assertEquals(null, closeFailure.get(), "closeAll closes, whatever interrupts it");
        assertTrue(keptInterrupt.get(), "the interrupt is kept for the caller");
        assertTrue(b.closed, "the other scope is closed too");
        assertTrue(resources.opened.stream().filter(each -> each.plan == A).findFirst().orElseThrow().closed,
                "the scope the close found opening was closed once open");
    }

    /**
     * A close that finds another close in flight (a context's release, the last owner's) returns only once that close
     * is done, and closes nothing twice: the owners leaving meanwhile find the generation closing.
     */
    @Test
    void aCloseThatFindsAReleaseInFlightWaitsForItAndNothingIsClosedTwice() throws Exception {
        Object owner = new Object();
        Resource a = scopes.join(A, owner, ReleaseMode.AT_JVM_SHUTDOWN);
        resources.closeStarted = new CountDownLatch(1);
        resources.letClose = new CountDownLatch(1);
        Thread releasing = new Thread(() -> scopes.release(owner), "releasing");
        releasing.start();
        resources.closeStarted.await();
        AtomicBoolean closeAllReturned = new AtomicBoolean();
        AtomicBoolean closedOnReturn = new AtomicBoolean();
        Thread closing = new Thread(() -> {
            scopes.closeAll();
            closedOnReturn.set(a.closed);
            closeAllReturned.set(true);
        }, "closing");
        closing.start();
        awaitParked(closing);
        // The owner's context closed twice: its second release finds the generation closing.
        scopes.release(owner);
        resources.letClose.countDown();
        closing.join();
        releasing.join();

        assertTrue(closeAllReturned.get());
        assertTrue(closedOnReturn.get(), "closeAll returned before the release in flight had closed the scope");
        assertEquals(1, resources.closes.get(), "one close per generation");
    }

    /** An owner whose context closes while the runtime closes its scope (closeAll, the hook) finds it closing: one close. */
    @Test
    void anOwnerLeavingAScopeThatClosesClosesNothingTwice() throws Exception {
        Object owner = new Object();
        Resource a = scopes.join(A, owner, ReleaseMode.AT_JVM_SHUTDOWN);
        resources.closeStarted = new CountDownLatch(1);
        resources.letClose = new CountDownLatch(1);
        Thread closing = new Thread(scopes::closeAll, "closing");
        closing.start();
        resources.closeStarted.await();
        scopes.release(owner);
        resources.letClose.countDown();
        closing.join();

        assertTrue(a.closed);
        assertEquals(1, resources.closes.get(), "one close per generation");
    }
}
