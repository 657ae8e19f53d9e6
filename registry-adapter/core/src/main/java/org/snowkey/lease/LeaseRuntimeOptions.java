package org.snowkey.lease;

import java.util.concurrent.ScheduledExecutorService;
import java.util.random.RandomGenerator;

import org.snowkey.keygen.clock.WallClock;

/**
 * What a {@link LeasedWorkerLease} runs on besides its store: the clock that decides floors and expiry, the
 * scheduler of renewals, the checkpoint and the random source of fencing tokens. Production uses {@link #defaults};
 * tests inject a clock they can freeze and a scheduler they can pause, to play a holder stopped by a GC pause or
 * SIGSTOP, and the simulator a seeded random source, so that a schedule replays exactly.
 *
 * @param clock the wall clock
 * @param renewalScheduler runs renewals, or null for a daemon thread of the lease's own
 * @param checkpoint the worker id checkpoint, or null for the default file of the scope
 * @param claimRandom draws the step of each claim's fencing token, or null for a {@link java.security.SecureRandom}
 */
public record LeaseRuntimeOptions(WallClock clock, ScheduledExecutorService renewalScheduler, WorkerIdCheckpoint checkpoint, RandomGenerator claimRandom) {

    public LeaseRuntimeOptions(final WallClock clock, final ScheduledExecutorService renewalScheduler, final WorkerIdCheckpoint checkpoint) {
        this(clock, renewalScheduler, checkpoint, null);
    }

    public static LeaseRuntimeOptions defaults() {
        return new LeaseRuntimeOptions(WallClock.system(), null, null, null);
    }

    public LeaseRuntimeOptions withClock(final WallClock newClock) {
        return new LeaseRuntimeOptions(newClock, renewalScheduler, checkpoint, claimRandom);
    }

    public LeaseRuntimeOptions withRenewalScheduler(final ScheduledExecutorService scheduler) {
        return new LeaseRuntimeOptions(clock, scheduler, checkpoint, claimRandom);
    }

    public LeaseRuntimeOptions withCheckpoint(final WorkerIdCheckpoint newCheckpoint) {
        return new LeaseRuntimeOptions(clock, renewalScheduler, newCheckpoint, claimRandom);
    }

    public LeaseRuntimeOptions withClaimRandom(final RandomGenerator random) {
        return new LeaseRuntimeOptions(clock, renewalScheduler, checkpoint, random);
    }
}
