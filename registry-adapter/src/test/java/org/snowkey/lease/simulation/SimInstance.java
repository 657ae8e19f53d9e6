package org.snowkey.lease.simulation;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.lease.LeaseRuntimeOptions;
import org.snowkey.lease.LeasedWorkerLease;
import org.snowkey.lease.WorkerIdCheckpoint;

/**
 * One simulated SnowKey process: an instance id and a layout that survive restarts, a skewed clock, and while it
 * runs an incarnation of the production classes ({@link LeasedWorkerLease} on a {@link SimStoreClient}, an
 * {@link IdGenerator} issuing on it) with the world's virtual scheduler and clock.
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

    private State state = State.DOWN;

    private int incarnation;

    private long pausedUntilMicros;

    private LeasedWorkerLease lease;

    private IdGenerator generator;

    private SimStoreClient client;

    /** Numbers this incarnation learnt it holds (observed as its grant): a record it wrote but never learnt of is leaked. */
    private final Set<Integer> known = new HashSet<>();

    /** The highest reading of its clock this incarnation made: expiry as the holder itself judged it, never revived by a jump back. */
    private long highestClockReading = Long.MIN_VALUE;

    private boolean refusedForLayout;

    SimInstance(final String instanceId, final IdLayout layout, final SimClock clock, final Path checkpointDirectory) {
        this(instanceId, layout, clock, checkpointDirectory, 0);
    }

    private SimInstance(final String instanceId, final IdLayout layout, final SimClock clock, final Path checkpointDirectory, final int replacementNumber) {
        this.instanceId = instanceId;
        this.layout = layout;
        this.clock = clock;
        this.checkpointDirectory = checkpointDirectory;
        this.replacementNumber = replacementNumber;
    }

    /**
     * Another process with this one's instance id, layout, host clock and checkpoint directory: the replacement an
     * orchestrator starts while this one hangs. Both may be live at once, which is what the fencing token's random
     * step is for; they read one clock, so they compute the same floor within the same millisecond.
     */
    SimInstance replacement(final int number) {
        return new SimInstance(instanceId, layout, clock, checkpointDirectory, number);
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
        generator = new IdGenerator(layout, lease, clock, new ClockRules(toleranceMillis, maxTimeCacheMillis));
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
        lease.heldGrant().ifPresent(grant -> known.add(grant.workerId()));
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
