package org.snowkey.lease.simulation;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.generator.GeneratorTestAccess;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.lease.LeaseRuntimeOptions;
import org.snowkey.lease.LeasedWorkerLease;
import org.snowkey.lease.WorkerIdCheckpoint;

/**
 * One simulated SnowKey process: an instance id and a layout that survive restarts, a skewed clock, and while it
 * runs an incarnation of the production classes ({@link LeasedWorkerLease} on a {@link SimStoreClient}, an
 * {@link IdGenerator} issuing on it) with the world's virtual scheduler and clock. A process may issue on several worker
 * ids of the pool at once (extra holdings, each a sibling of its lease on the same store client), which the schedule
 * adds and gives back by hand.
 */
final class SimInstance {

    /** Life cycle of the process. */
    enum State {
        DOWN, RUNNING, CLOSED
    }

    private final String instanceId;

    private final IdLayout layout;

    private final SimClock clock;

    private final Path checkpointDirectory;

    /** 0 for a schedule's own process; n for the n-th replacement started with its instance id while it hung. */
    private final int replacementNumber;

    /** Holdings its generator may issue on at once: 1 for the lease's own worker id only. */
    private final int maxWorkerIds;

    private State state = State.DOWN;

    private int incarnation;

    private long pausedUntilMicros;

    private LeasedWorkerLease lease;

    private IdGenerator generator;

    /** The lease as its generator sees it when it may hold more than one worker id (its siblings kept); else null. */
    private SimLease holdingsLease;

    private SimStoreClient client;

    /** Numbers this incarnation learnt it holds (observed as its grant): a record it wrote but never learnt of is leaked. */
    private final Set<Integer> known = new HashSet<>();

    /** The highest reading of its clock this incarnation made: expiry as the holder itself judged it, never revived by a jump back. */
    private long highestClockReading = Long.MIN_VALUE;

    private boolean refusedForLayout;

    SimInstance(final String instanceId, final IdLayout layout, final SimClock clock, final Path checkpointDirectory, final int maxWorkerIds) {
        this(instanceId, layout, clock, checkpointDirectory, 0, maxWorkerIds);
    }

    private SimInstance(final String instanceId, final IdLayout layout, final SimClock clock, final Path checkpointDirectory, final int replacementNumber,
                        final int maxWorkerIds) {
        this.instanceId = instanceId;
        this.layout = layout;
        this.clock = clock;
        this.checkpointDirectory = checkpointDirectory;
        this.replacementNumber = replacementNumber;
        this.maxWorkerIds = maxWorkerIds;
    }

    /**
     * Another process with this one's instance id, layout, host clock and checkpoint directory: the replacement an
     * orchestrator starts while this one hangs. Both may be live at once, which is what the fencing token's random
     * step is for; they read one clock, so they compute the same floor within the same millisecond.
     */
    SimInstance replacement(final int number) {
        return new SimInstance(instanceId, layout, clock, checkpointDirectory, number, maxWorkerIds);
    }

    void start(final SimWorld world, final SimStore store, final SimStats stats, final LeaseTerms settings, final long toleranceMillis,
               final long maxTimeCacheMillis) {
        incarnation++;
        state = State.RUNNING;
        pausedUntilMicros = 0;
        known.clear();
        highestClockReading = Long.MIN_VALUE;
        refusedForLayout = false;
        client = new SimStoreClient(world, store, new SimStore.Writer(this, incarnation), stats, settings.pool());
        LeaseRuntimeOptions options = LeaseRuntimeOptions.defaults().withClock(clock).withRenewalScheduler(new VirtualScheduler(world, this, incarnation))
                .withCheckpoint(new WorkerIdCheckpoint(checkpointDirectory, instanceId))
                // Fencing tokens from the schedule's seed, not the world's random source: a replay draws the same ones, and
                // the schedules of seeds recorded before tokens were drawn stay as they were.
                // A replacement draws its own (a process's SecureRandom shares nothing with its twin's).
                .withClaimRandom(new Random(world.seed() * 31 + instanceId.hashCode() * 17L + incarnation + replacementNumber * 1_000_003L));
        lease = SimLeases.open(client, settings, layout, options);
        ClockRules rules = new ClockRules(toleranceMillis, maxTimeCacheMillis);
        if (maxWorkerIds > 1) {
            holdingsLease = new SimLease(lease, known, store, new SimStore.Writer(this, incarnation), world::note);
            generator = GeneratorTestAccess.withManualHoldings(layout, holdingsLease, clock, rules, maxWorkerIds);
        } else {
            holdingsLease = null;
            generator = new IdGenerator(layout, lease, clock, rules);
        }
    }

    /** The process dies: nothing is released, its timers never fire. */
    void crash() {
        state = State.DOWN;
    }

    /**
     * Graceful shutdown: the generator releases its lease.
     *
     * @return true when every store call of the release succeeded
     */
    boolean close() {
        int failedBefore = client.failedCalls();
        generator.close();
        state = State.CLOSED;
        return client.failedCalls() == failedBefore;
    }

    void pause(final long untilMicros) {
        pausedUntilMicros = Math.max(pausedUntilMicros, untilMicros);
    }

    void resume() {
        pausedUntilMicros = 0;
    }

    /** Notes the grant in force and the clock, after every action and timer of this instance. */
    void observe() {
        if (state != State.RUNNING) {
            return;
        }
        highestClockReading = Math.max(highestClockReading, clock.millis());
        for (LeaseGrant each : heldGrants()) {
            known.add(each.workerId());
        }
    }

    /** The grants in force on the lease and on every sibling of it, while running. */
    List<LeaseGrant> heldGrants() {
        List<LeaseGrant> held = new ArrayList<>();
        if (state != State.RUNNING) {
            return held;
        }
        lease.heldGrant().ifPresent(held::add);
        if (holdingsLease != null) {
            for (LeasedWorkerLease each : holdingsLease.siblings()) {
                each.heldGrant().ifPresent(held::add);
            }
        }
        return held;
    }

    /** The grant the generator issues on for {@code workerId} now, if it issues on that worker id. */
    Optional<LeaseGrant> holdingOn(final int workerId) {
        for (LeaseGrant each : GeneratorTestAccess.holdingGrants(generator)) {
            if (each.workerId() == workerId) {
                return Optional.of(each);
            }
        }
        return Optional.empty();
    }

    int maxWorkerIds() {
        return maxWorkerIds;
    }

    boolean isIncarnation(final int candidate) {
        return state == State.RUNNING && incarnation == candidate;
    }

    boolean isPausedAt(final long nowMicros) {
        return pausedUntilMicros > nowMicros;
    }

    long pausedUntilMicros() {
        return pausedUntilMicros;
    }

    boolean isRunning() {
        return state == State.RUNNING;
    }

    State state() {
        return state;
    }

    String instanceId() {
        return instanceId;
    }

    IdLayout layout() {
        return layout;
    }

    SimClock clock() {
        return clock;
    }

    int incarnation() {
        return incarnation;
    }

    IdGenerator generator() {
        return generator;
    }

    LeasedWorkerLease lease() {
        return lease;
    }

    SimStoreClient client() {
        return client;
    }

    Optional<LeaseGrant> heldGrant() {
        return state == State.RUNNING ? lease.heldGrant() : Optional.empty();
    }

    Set<Integer> known() {
        return known;
    }

    long highestClockReading() {
        return highestClockReading;
    }

    boolean refusedForLayout() {
        return refusedForLayout;
    }

    void refusedForLayout(final boolean refused) {
        refusedForLayout = refused;
    }

    /** The instance id, which replacement, and the incarnation: how the trace names this process. */
    String name() {
        return instanceId + (replacementNumber == 0 ? "" : "/replacement " + replacementNumber) + "#" + incarnation;
    }

    @Override
    public String toString() {
        return name() + " " + layout + " clock offset " + clock.offsetMillis() + " ms";
    }
}
