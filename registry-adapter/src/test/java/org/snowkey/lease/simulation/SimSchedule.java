package org.snowkey.lease.simulation;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.generator.GeneratorTestAccess;
import org.snowkey.keygen.generator.IdBatch;
import org.snowkey.keygen.generator.IdUnavailableException;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseUnavailableException;
import org.snowkey.lease.store.LeaseStoreUnavailableException;

/**
 * One simulated schedule, entirely determined by its seed: a pool, a few instances (sometimes more than the pool
 * has numbers, sometimes one with another layout), then a random sequence of steps (ids and batches, time
 * passing, clock jumps, pauses past expiry, crashes, restarts with the same instance id, graceful releases, extra
 * holdings added, given back and checked) while the store injects faults, then a quiet phase in which every live
 * instance must issue again.
 */
final class SimSchedule {

    /** Virtual time starts here (2026-01-01T00:00:00Z); the layouts' epoch lies a year earlier. */
    private static final long START_MILLIS = 1_767_225_600_000L;

    private static final long EPOCH_MILLIS = 1_735_689_600_000L;

    private static final String POOL = "sim";

    private static final String[] STREAMS = {"global", "t_order"};

    private final SimWorld world;

    private final Random random;

    private final SimStats stats = new SimStats();

    private final SimStore store = new SimStore();

    private final SimHistory history = new SimHistory(store, stats);

    private final List<SimInstance> instances = new ArrayList<>();

    private final int steps;

    private final long durationMillis;

    private final long toleranceMillis;

    private final long maxTimeCacheMillis;

    private final long maxSkewMillis;

    private final double faultRate;

    private final long maxStoreDelayMillis;

    private final IdLayout poolLayout;

    /** How likely another instance acts while a store call is in flight, and how deep such actions may nest. */
    private final double interleaving;

    private static final int MAX_NESTING = 2;

    /** Replacements started in one schedule, at most. */
    private static final int MAX_REPLACEMENTS = 2;

    private final Path checkpointDirectory;

    /**
     * Whether and when a replacement starts: drawn from a source of its own, so that a seed whose schedule starts no
     * replacement runs exactly as it did before replacements were simulated.
     */
    private final Random replacementRandom;

    /** How likely a process hangs in a store call and a replacement with its instance id starts meanwhile. */
    private final double replacementRate;

    private int replacements;

    /**
     * Whether instances issue on extra holdings, how many at most and when they change: drawn from a source of its own,
     * so that a seed whose schedule draws no holdings runs exactly as it did before holdings were simulated.
     */
    private final Random holdingsRandom;

    /** How likely a step is followed by a change of some instance's holdings (0: every generator on one worker id). */
    private final double holdingsRate;

    /** Set once the schedule's own instances have started: replacements join the list from then on. */
    private boolean ownInstancesStarted;

    private int nesting;

    /** No concurrency in the quiet phase: which layout claims the pool first is settled before it. */
    private boolean quietPhase;

    SimSchedule(final long seed, final int steps, final Path checkpointDirectory, final boolean traced) {
        this.world = new SimWorld(seed, traced);
        this.random = world.random();
        this.steps = steps;
        this.checkpointDirectory = checkpointDirectory;
        this.replacementRandom = new Random(seed * 0x5DEECE66DL + 11);
        this.replacementRate = replacementRandom.nextInt(3) == 0 ? replacementRandom.nextDouble() * 0.2 : 0;
        this.holdingsRandom = new Random(seed * 0x2545F4914F6CDD1DL + 29);
        this.holdingsRate = holdingsRandom.nextInt(3) == 0 ? 0 : 0.1 + holdingsRandom.nextDouble() * 0.4;
        world.interleaver(this::interleave);
        durationMillis = 1_000 + random.nextInt(2_001);
        toleranceMillis = random.nextInt(20);
        maxTimeCacheMillis = random.nextInt(3) == 0 ? 0 : random.nextInt(3_000);
        maxSkewMillis = durationMillis / 4;
        faultRate = random.nextInt(4) == 0 ? 0 : random.nextDouble() * 0.3;
        maxStoreDelayMillis = random.nextInt((int) durationMillis);
        poolLayout = IdLayout.of(1 + random.nextInt(2), random.nextInt(2), EPOCH_MILLIS);
        interleaving = random.nextInt(3) == 0 ? 0 : random.nextDouble() * 0.3;
        int count = 2 + random.nextInt(3);
        int odd = random.nextInt(4) == 0 ? 1 + random.nextInt(count - 1) : -1;
        for (int i = 0; i < count; i++) {
            IdLayout layout = i == odd ? otherLayout(poolLayout) : poolLayout;
            SimClock clock = new SimClock(world, START_MILLIS + skew());
            int maxWorkerIds = holdingsRate > 0 ? 1 + holdingsRandom.nextInt(4) : 1;
            instances.add(new SimInstance("i" + i, layout, clock, checkpointDirectory, maxWorkerIds));
        }
    }

    private IdLayout otherLayout(final IdLayout base) {
        switch (random.nextInt(3)) {
            case 0:
                return IdLayout.of(base.workerIdBits() + 1, base.sequenceLowBits(), base.epochMillis());
            case 1:
                return IdLayout.of(base.workerIdBits(), 1 - base.sequenceLowBits(), base.epochMillis());
            default:
                return IdLayout.of(base.workerIdBits(), base.sequenceLowBits(), base.epochMillis() + 1 + random.nextInt((int) durationMillis));
        }
    }

    /**
     * While a store call of {@code caller} is in flight: its process may hang there while a replacement with its
     * instance id starts and issues, or another instance, not on the stack, issues (and so may acquire, renew or fail).
     */
    private void interleave(final SimInstance caller, final java.util.Set<SimInstance> busy) {
        if (ownInstancesStarted && !quietPhase && nesting < MAX_NESTING && replacements < MAX_REPLACEMENTS && replacementRate > 0
                && replacementRandom.nextDouble() < replacementRate) {
            startReplacement(caller);
            return;
        }
        if (quietPhase || nesting >= MAX_NESTING || interleaving <= 0 || random.nextDouble() >= interleaving) {
            return;
        }
        SimInstance other = instances.get(random.nextInt(instances.size()));
        if (busy.contains(other)) {
            return;
        }
        nesting++;
        try {
            stats.interleavings++;
            note(other.name() + " acts while a store call is in flight");
            issue(other);
        } finally {
            nesting--;
        }
    }

    /**
     * {@code hung} stops in its store call for up to two leases (paused: it acts and renews again afterwards, finishing
     * the call it hung in first), and a replacement with its instance id, on the same host clock, starts and issues at
     * once, so it may claim the very number the hung process is claiming.
     */
    private void startReplacement(final SimInstance hung) {
        replacements++;
        stats.replacements++;
        long millis = replacementRandom.nextInt((int) durationMillis * 2);
        hung.pause(world.nowMicros() + millis * 1000);
        SimInstance replacement = hung.replacement(replacements);
        instances.add(replacement);
        note(hung.name() + " hangs in a store call for " + millis + " ms; a replacement with its instance id starts");
        start(replacement);
        nesting++;
        try {
            issue(replacement);
        } finally {
            nesting--;
        }
    }

    private long skew() {
        return random.nextInt((int) (2 * maxSkewMillis + 1)) - maxSkewMillis;
    }

    /**
     * Runs the schedule.
     *
     * @return what it did
     * @throws SimulationFailure when an invariant broke
     */
    SimStats run() {
        long started = world.nowMicros();
        stats.schedules = 1;
        for (SimInstance each : instances) {
            start(each);
        }
        ownInstancesStarted = true;
        for (int step = 0; step < steps; step++) {
            stats.steps++;
            step();
            if (holdingsRate > 0 && holdingsRandom.nextDouble() < holdingsRate) {
                changeHoldings(instances.get(holdingsRandom.nextInt(instances.size())));
            }
            world.runUntil(world.nowMicros() + random.nextInt(50_000));
            checkAll();
        }
        quiet();
        stats.simulatedMillis = (world.nowMicros() - started) / 1000;
        return stats;
    }

    private void step() {
        SimInstance instance = instances.get(random.nextInt(instances.size()));
        int roll = random.nextInt(100);
        if (roll < 50) {
            issue(instance);
        } else if (roll < 68) {
            long millis = random.nextInt((int) durationMillis / 2);
            note("time passes " + millis + " ms");
            world.runUntil(world.nowMicros() + millis * 1000);
        } else if (roll < 74) {
            long target = skew();
            note(instance.name() + " clock jumps to offset " + target);
            instance.clock().jump(target - (instance.clock().offsetMillis() - START_MILLIS));
            stats.clockJumps++;
        } else if (roll < 79) {
            long millis = random.nextInt((int) durationMillis * 2);
            note(instance.name() + " pauses " + millis + " ms");
            instance.pause(world.nowMicros() + millis * 1000);
            stats.pauses++;
        } else if (roll < 83) {
            if (instance.isRunning()) {
                note(instance.name() + " crashes");
                instance.crash();
                stats.crashes++;
            }
        } else if (roll < 88) {
            if (instance.isRunning() && !instance.isPausedAt(world.nowMicros())) {
                close(instance);
            }
        } else if (roll < 96) {
            if (!instance.isRunning()) {
                note(instance.name() + " restarts");
                start(instance);
                stats.restarts++;
            }
        } else {
            for (SimInstance each : instances) {
                if (each.isRunning()) {
                    each.client().faults(0, 0);
                }
            }
            note("store faults pause");
        }
    }

    /**
     * Adds an extra holding (a sibling lease acquiring a number of the pool), gives the newest back, or runs the growth
     * check once or as often as shrinking takes (it drops revoked extras, and gives half the extras back after that
     * many checks without demand): by hand, since the simulated streams never run at the clock's cap. The growth check
     * keeps a quarter of the pool free; a hand-made addition does not, and the quiet phase gives every extra back.
     */
    private void changeHoldings(final SimInstance instance) {
        if (instance.maxWorkerIds() < 2 || !instance.isRunning() || instance.isPausedAt(world.nowMicros()) || world.isBusy(instance)) {
            return;
        }
        boolean entered = world.enter(instance);
        try {
            int roll = holdingsRandom.nextInt(10);
            if (roll < 5) {
                if (GeneratorTestAccess.holdingGrants(instance.generator()).size() < instance.maxWorkerIds()) {
                    note(instance.name() + " adds a holding");
                    GeneratorTestAccess.addHolding(instance.generator());
                    stats.holdingChanges++;
                }
            } else if (roll < 8) {
                note(instance.name() + " gives a holding back");
                GeneratorTestAccess.removeHolding(instance.generator());
                stats.holdingChanges++;
            } else {
                int checks = roll < 9 ? 1 : GeneratorTestAccess.checksToShrink();
                note(instance.name() + " checks its holdings " + checks + " time(s)");
                for (int i = 0; i < checks; i++) {
                    GeneratorTestAccess.checkHoldings(instance.generator());
                }
                stats.holdingChanges++;
            }
        } catch (final LeaseUnavailableException | LeaseStoreUnavailableException ex) {
            // The growth thread logs these and tries again at its next check.
            note(instance.name() + " could not change its holdings: " + ex.getMessage());
        } finally {
            instance.observe();
            world.leave(instance, entered);
        }
    }

    private void start(final SimInstance instance) {
        instance.start(world, store, stats, new LeaseTerms(POOL, durationMillis, 0, instance.instanceId()), toleranceMillis, maxTimeCacheMillis);
        instance.client().faults(faultRate, maxStoreDelayMillis);
    }

    private void close(final SimInstance instance) {
        Optional<LeaseGrant> held = instance.heldGrant();
        List<LeaseGrant> holdings = instance.heldGrants();
        note(instance.name() + " closes, holding " + held.map(LeaseGrant::holder).orElse("nothing") + (holdings.size() > 1 ? " and extras " + holdings : ""));
        boolean clean = instance.close();
        stats.releases++;
        if (clean) {
            for (LeaseGrant each : holdings) {
                history.checkReleased(instance, each.workerId());
            }
        }
    }

    private boolean issue(final SimInstance instance) {
        if (!instance.isRunning() || instance.isPausedAt(world.nowMicros())) {
            return false;
        }
        boolean entered = world.enter(instance);
        try {
            return issueNow(instance);
        } finally {
            world.leave(instance, entered);
        }
    }

    private boolean issueNow(final SimInstance instance) {
        String stream = STREAMS[random.nextInt(4) == 0 ? 1 : 0];
        int count = random.nextInt(3) == 0 ? 1 + random.nextInt(16) : 1;
        try {
            long[] ids;
            if (count == 1) {
                ids = new long[] {instance.generator().stream(stream).nextId()};
            } else {
                IdBatch batch = instance.generator().stream(stream).nextIds(count);
                ids = new long[count];
                for (int i = 0; i < count; i++) {
                    ids[i] = batch.get(i);
                }
            }
            instance.lease().heldGrant().orElseThrow(() -> new SimulationFailure(instance + " issued without a grant in force"));
            instance.observe();
            for (long each : ids) {
                int workerId = instance.layout().decode(each).workerId();
                LeaseGrant grant = instance.holdingOn(workerId).orElseThrow(() -> new SimulationFailure(instance + " issued id " + each
                        + " on worker id " + workerId + ", which it does not issue on"));
                if (grant.isRevoked()) {
                    throw new SimulationFailure(instance + " issued id " + each + " on " + grant + ", a grant no longer in force");
                }
                history.issued(instance, stream, each, grant);
            }
            return true;
        } catch (final IdUnavailableException | LeaseUnavailableException ex) {
            instance.observe();
            if (String.valueOf(ex.getMessage()).contains("layout") && !instance.refusedForLayout()) {
                instance.refusedForLayout(true);
                stats.layoutRefusals++;
            }
            note(instance.name() + " could not issue: " + ex.getMessage());
            return false;
        }
    }

    private void checkAll() {
        for (SimInstance each : instances) {
            each.observe();
            history.checkNoLeakedClaim(each);
        }
        history.checkNoSharedNumber(instances);
    }

    /**
     * Faults stop and pauses end; after the longest a crashed holder's number can stay
     * out of use (a lease plus the clock skew), each live instance whose layout matches the pool's must issue within
     * a few retry intervals, as far as the pool has numbers.
     */
    private void quiet() {
        note("quiet phase");
        quietPhase = true;
        for (SimInstance each : instances) {
            if (each.isRunning()) {
                each.client().faults(0, 0);
                each.resume();
                if (each.maxWorkerIds() > 1) {
                    // Hand-made additions ignore the pool's free quarter: the numbers go back before every instance must issue.
                    GeneratorTestAccess.removeAllHoldings(each.generator());
                    each.observe();
                }
            }
        }
        world.runUntil(world.nowMicros() + (durationMillis + 2 * maxSkewMillis + 100) * 1000);
        checkAll();
        // The pool's layout is the one its records carry (the first instance to write wins); older records carry none.
        java.util.Set<IdLayout> layouts = new java.util.HashSet<>();
        store.entries().values().forEach(entry -> {
            if (entry.record().layout() != null) {
                layouts.add(entry.record().layout());
            }
        });
        if (layouts.size() > 1) {
            // Two layouts refused each other and a give-back failed on a store fault: the pool fails closed until an
            // operator releases the stray record (docs/lease-safety.md). Nothing is required to issue.
            stats.poolsLeftWithTwoLayouts++;
            return;
        }
        IdLayout recorded = layouts.isEmpty() ? poolLayout : layouts.iterator().next();
        List<SimInstance> eligible = new ArrayList<>();
        int heldByOthers = 0;
        for (SimInstance each : instances) {
            if (each.isRunning() && each.layout().equals(recorded)) {
                eligible.add(each);
            } else if (each.isRunning() && each.heldGrant().isPresent()) {
                heldByOthers++;
            }
        }
        int required = Math.min(eligible.size(), recorded.workerIdCount() - heldByOthers);
        List<SimInstance> issuing = new ArrayList<>();
        long retryMillis = Math.max(50, Math.min(1_000, durationMillis / 10));
        for (int round = 0; round < 20 && issuing.size() < required; round++) {
            for (SimInstance each : eligible) {
                if (!issuing.contains(each) && issue(each)) {
                    issuing.add(each);
                }
            }
            world.runUntil(world.nowMicros() + retryMillis * 1000);
            checkAll();
        }
        if (issuing.size() < required) {
            throw new SimulationFailure("after the faults stopped only " + issuing.size() + " of " + required + " live instances issue again: " + issuing
                    + "; store: " + store.entries());
        }
        stats.invariantChecks++;
    }

    private void note(final String event) {
        world.note(event);
    }

    String trace() {
        return world.trace();
    }

    long seed() {
        return world.seed();
    }
}
