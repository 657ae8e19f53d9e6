package org.snowkey.keygen.runtime;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.Predicate;

import org.snowkey.keygen.config.GeneratorSettings;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.generator.IdGenerator;

/**
 * One generation of a scope: a generator from the moment its lease opens until it is released, with the owners
 * that use it. The state moves one way, {@code OPENING -> OPEN -> CLOSING -> CLOSED} (or {@code OPENING -> CLOSED}
 * when the lease cannot be opened); a scope key that is used again after that gets a new generation. The lease's
 * I/O (open, release) runs outside this monitor, by the one thread that moved the state; others wait, outside the
 * monitor, on a latch that the move out of the state opens. See docs/design.md, "Scopes".
 */
final class Scope {

    enum State { OPENING, OPEN, CLOSING, CLOSED }

    /**
     * How a thread waits for another to move the state on. {@code PARK} (on a latch) in production. {@code SPIN}
     * (yield until the state changes) only under the Lincheck model checker: Lincheck 3.7 does not schedule a thread
     * parked inside {@code CountDownLatch} or {@code Object.wait} here and reports the execution as hung, while it
     * models a yielding loop over a volatile read exactly. The states and their moves are the same in both.
     */
    enum Waiting { PARK, SPIN }

    /** What a join found. */
    enum Admission {
        /** The caller joined the open generation. */
        JOINED,
        /** The caller must open the lease, then report with {@link #opened} or {@link #openFailed}. */
        OPEN_IT,
        /** The generation has ended: take the scope key's next one. */
        ENDED
    }

    private final String key;

    private final Waiting waiting;

    /** Written under this monitor; volatile so that a {@code SPIN} waiter can watch it without the monitor. */
    private volatile State state = State.OPENING;

    private boolean openerChosen;

    private ScopePlan plan;

    private IdGenerator generator;

    private final Map<Object, ReleaseMode> owners = new IdentityHashMap<>();

    /** Opens when OPENING ends (to OPEN, or to CLOSED when the lease could not be opened). */
    private final CountDownLatch openingEnded = new CountDownLatch(1);

    /** Opens when the generation is CLOSED. */
    private final CountDownLatch closedLatch = new CountDownLatch(1);

    Scope(final String key, final Waiting waiting) {
        this.key = key;
        this.waiting = waiting;
    }

    String key() {
        return key;
    }

    /**
     * Joins this generation: waits while another thread opens or closes it; the first caller of a new generation is
     * told to open it. An {@code owner} of {@code null} uses the generation without owning it.
     *
     * @throws IllegalStateException when the open generation runs with other settings
     */
    Admission admit(final ScopePlan joining, final Object owner, final ReleaseMode mode) {
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
                        checkCompatible(joining);
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
            await(awaited, seen);
        }
    }

    /** The generator of an open (or since closed) generation; null before it opened. */
    synchronized IdGenerator generator() {
        return generator;
    }

    synchronized boolean isOpen() {
        return state == State.OPEN;
    }

    synchronized void opened(final ScopePlan openedPlan, final IdGenerator openedGenerator) {
        plan = openedPlan;
        generator = openedGenerator;
        state = State.OPEN;
        openingEnded.countDown();
    }

    synchronized void openFailed() {
        state = State.CLOSED;
        openingEnded.countDown();
        closedLatch.countDown();
    }

    /**
     * The owner leaves. Returns the generator to release when it was the last owner (the state is then CLOSING and
     * the caller must release it and report {@link #closed}), else null. A generation that gained an owner since
     * is never closed by a leave: the check and the move to CLOSING are one step under this monitor.
     */
    synchronized IdGenerator leave(final Object owner) {
        if (state == State.OPEN && owners.remove(owner) != null && owners.isEmpty()) {
            state = State.CLOSING;
            return generator;
        }
        return null;
    }

    /**
     * Starts closing this generation if {@code closeIf} holds for its owners' release modes, waiting first for an
     * open in flight to finish. Returns the generator to release (the caller must then report {@link #closed}), or
     * null when there is nothing to release; a close already in flight is waited for, so that on return the
     * generation this call saw is released or left open on purpose.
     */
    IdGenerator beginClose(final Predicate<Map<Object, ReleaseMode>> closeIf) {
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
                        return generator;
                    }
                    default -> {
                        return null;
                    }
                }
            }
            await(awaited, seen);
        }
    }

    synchronized void closed() {
        owners.clear();
        state = State.CLOSED;
        closedLatch.countDown();
    }

    /** Waits for another thread to move the state on; an interrupt is kept for the caller, not lost. */
    private void await(final CountDownLatch moved, final State seen) {
        if (waiting == Waiting.SPIN) {
            while (state == seen) {
                Thread.yield();
            }
            return;
        }
        try {
            moved.await();
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("SnowKey: interrupted while another thread opened or closed scope " + key, ex);
        }
    }

    private void checkCompatible(final ScopePlan other) {
        GeneratorSettings mine = plan.settings();
        GeneratorSettings theirs = other.settings();
        if (!mine.layout().equals(theirs.layout()) || mine.maxTolerateTimeDifferenceMillis() != theirs.maxTolerateTimeDifferenceMillis()
                || mine.maxTimeCacheMillis() != theirs.maxTimeCacheMillis()) {
            throw new IllegalStateException("SnowKey scope " + key + " already runs with " + describe(mine)
                    + "; another key generator of the same scope asks for " + describe(theirs)
                    + ". Key generators sharing a worker id in one JVM must share these settings (a key generator ShardingSphere replaced at"
                    + " run time keeps running until its data source closes): align the props, or give the other key generator its own"
                    + " worker-id or lease-pool");
        }
    }

    private static String describe(final GeneratorSettings settings) {
        return settings.layout() + ", " + PropertyNames.MAX_TOLERATE_TIME_DIFFERENCE_MILLISECONDS + "=" + settings.maxTolerateTimeDifferenceMillis()
                + ", " + PropertyNames.MAX_TIME_CACHE_MILLISECONDS + "=" + settings.maxTimeCacheMillis();
    }
}
