package org.snowkey.lease;

import java.util.concurrent.ScheduledExecutorService;

import org.snowkey.keygen.clock.WallClock;

/**
 * What a {@link LeasedWorkerLease} runs on besides its store: the clock that decides floors and expiry, the
 * scheduler of renewals and the checkpoint. Production uses {@link #defaults}; tests inject a clock they can
 * freeze and a scheduler they can pause, to play a holder stopped by a GC pause or SIGSTOP.
 *
 * @param clock the wall clock
 * @param renewalScheduler runs renewals, or null for a daemon thread of the lease's own
 * @param checkpoint the worker id checkpoint, or null for the default file of the scope
 */
public record LeaseRuntimeOptions(WallClock clock, ScheduledExecutorService renewalScheduler, WorkerIdCheckpoint checkpoint) {

    public static LeaseRuntimeOptions defaults() {
        return new LeaseRuntimeOptions(WallClock.system(), null, null);
    }

    public LeaseRuntimeOptions withClock(final WallClock newClock) {
        return new LeaseRuntimeOptions(newClock, renewalScheduler, checkpoint);
    }

    public LeaseRuntimeOptions withRenewalScheduler(final ScheduledExecutorService scheduler) {
        return new LeaseRuntimeOptions(clock, scheduler, checkpoint);
    }

    public LeaseRuntimeOptions withCheckpoint(final WorkerIdCheckpoint newCheckpoint) {
        return new LeaseRuntimeOptions(clock, renewalScheduler, newCheckpoint);
    }
}
