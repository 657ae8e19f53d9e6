package org.snowkey.keygen.runtime;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * One generation of a scope: what it holds (a generator over a worker-id lease, an allocator with its sequences) from
 * the moment it opens until it is closed, with the owners that use it. The state moves one way,
 * {@code OPENING -> OPEN -> CLOSING -> CLOSED} (or {@code OPENING -> CLOSED} when it cannot be opened); a scope key
 * that is used again after that gets a new generation. The I/O (open, close) runs outside this monitor, by the one
 * thread that moved the state; others wait, outside the monitor, on a latch that the move out of the state opens.
 * See docs/design.md, "Scopes".
 *
 * @param <P> the plan the generation was opened with
 * @param <R> what the open generation holds
 */
final class Generation<P, R> {

    enum State { OPENING, OPEN, CLOSING, CLOSED }

    /** What a join found. */
    enum Admission {
        /** The caller joined the open generation. */
        JOINED,
        /** The caller must open the generation, then report with {@link #opened} or {@link #openFailed}. */
        OPEN_IT,
        /** The generation has ended: take the scope key's next one. */
        ENDED
    }

    private final String key;

    private final Scopes.Waiting waiting;

    private final ScopeResources<P, R> resources;

    /** Written under this monitor; volatile so that a {@code SPIN} waiter can watch it without the monitor. */
    private volatile State state = State.OPENING;

    private boolean openerChosen;

    private P plan;

    private R resource;

    private final Map<Object, ReleaseMode> owners = new IdentityHashMap<>();

    /** Opens when OPENING ends (to OPEN, or to CLOSED when the generation could not be opened). */
    private final CountDownLatch openingEnded = new CountDownLatch(1);

    /** Opens when the generation is CLOSED. */
    private final CountDownLatch closedLatch = new CountDownLatch(1);

    Generation(final String key, final Scopes.Waiting waiting, final ScopeResources<P, R> resources) {
        this.key = key;
        this.waiting = waiting;
        this.resources = resources;
    }

    String key() {
        return key;
    }

    /**
     * Joins this generation: waits while another thread opens or closes it; the first caller of a new generation is
     * told to open it. An {@code owner} of {@code null} uses the generation without owning it.
     *
     * @throws IllegalStateException when the open generation cannot take the joining plan
     */
    Admission admit(final P joining, final Object owner, final ReleaseMode mode) {
        while (true) {
            CountDownLatch awaited;
            State seen;
            synchronized (this) {
                seen = state;
                switch (state) {
                    case OPENING -> {
                        if (!openerChosen) {
                            openerChosen = true;
                            return Admission.OPEN_IT;
                        }
                        awaited = openingEnded;
                    }
                    case OPEN -> {
                        resources.checkJoin(key, plan, joining);
                        if (owner != null) {
                            owners.merge(owner, mode, ReleaseMode::strongest);
                        }
                        return Admission.JOINED;
                    }
                    case CLOSING -> awaited = closedLatch;
                    default -> {
                        return Admission.ENDED;
                    }
                }
            }
            await(awaited, seen, true);
        }
    }

    /** What an open (or since closed) generation holds; null before it opened. */
    synchronized R resource() {
        return resource;
    }

    synchronized boolean isOpen() {
        return state == State.OPEN;
    }

    synchronized void opened(final P openedPlan, final R openedResource) {
        plan = openedPlan;
        resource = openedResource;
        state = State.OPEN;
        openingEnded.countDown();
    }

    synchronized void openFailed() {
        state = State.CLOSED;
        openingEnded.countDown();
        closedLatch.countDown();
    }

    /**
     * The owner leaves. Returns what to close when {@code orphaned} holds for the mode the owner had joined with and the
     * owners left (the state is then CLOSING and the caller must close it and report {@link #closed}), else null. A
     * generation that gained an owner since is never closed by a leave: the check and the move to CLOSING are one step
     * under this monitor.
     */
    synchronized R leave(final Object owner, final BiPredicate<ReleaseMode, Map<Object, ReleaseMode>> orphaned) {
        if (state != State.OPEN) {
            return null;
        }
        ReleaseMode left = owners.remove(owner);
        if (left != null && orphaned.test(left, owners)) {
            state = State.CLOSING;
            return resource;
        }
        return null;
    }

    /**
     * Starts closing this generation if {@code closeIf} holds for its owners' release modes, waiting first for an
     * open in flight to finish. Returns what to close (the caller must then report {@link #closed}), or null when
     * there is nothing to close; a close already in flight is waited for, so that on return the generation this call
     * saw is closed or left open on purpose.
     */
    R beginClose(final Predicate<Map<Object, ReleaseMode>> closeIf) {
        while (true) {
            CountDownLatch awaited;
            State seen;
            synchronized (this) {
                seen = state;
                switch (state) {
                    case OPENING -> awaited = openingEnded;
                    case CLOSING -> awaited = closedLatch;
                    case OPEN -> {
                        if (!closeIf.test(owners)) {
                            return null;
                        }
                        state = State.CLOSING;
                        return resource;
                    }
                    default -> {
                        return null;
                    }
                }
            }
            // A close must finish whatever interrupts its caller: given up, it would leave open a generation its caller
            // is told is closed, and the generations after it unclosed.
            await(awaited, seen, false);
        }
    }

    synchronized void closed() {
        owners.clear();
        state = State.CLOSED;
        closedLatch.countDown();
    }

    /**
     * Waits for another thread to move the state on; an interrupt is kept for the caller, not lost. An interruptible
     * wait ends with an {@link IllegalStateException} on interrupt; the other waits on and returns with the interrupt set.
     */
    private void await(final CountDownLatch moved, final State seen, final boolean interruptible) {
        if (waiting == Scopes.Waiting.SPIN) {
            while (state == seen) {
                Thread.yield();
            }
            return;
        }
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    moved.await();
                    return;
                } catch (final InterruptedException ex) {
                    interrupted = true;
                    if (interruptible) {
                        throw new IllegalStateException("SnowKey: interrupted while another thread opened or closed scope " + key, ex);
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
