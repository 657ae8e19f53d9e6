package org.snowkey.lease;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.lease.store.LayoutText;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseStatus;
import org.snowkey.keygen.lease.LeaseUnavailableException;
import org.snowkey.keygen.lease.WorkerLease;
import org.snowkey.lease.store.CorruptLeaseRecordException;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.lease.store.LeaseStoreUnavailableException;
import org.snowkey.lease.store.StoredLease;

/**
 * A worker id leased from any {@link LeaseStore} with the protocol of docs/design.md, "Worker id leases".
 *
 * <ul>
 *   <li>Acquire ({@link LeaseAcquirer}) on first use, retrying an unreachable registry or a full pool up to
 *       {@code lease-acquire-timeout-milliseconds}.</li>
 *   <li>Renew on a daemon scheduler every third of the lease: compare-and-set on the held store version, moving
 *       {@code expiresAt} and {@code reservedUntil} one lease duration ahead; the grant's ceiling is raised only
 *       after the write is durable.</li>
 *   <li>A failed compare-and-set (someone else holds the number) or a passed expiry revokes the grant at once, and
 *       a fresh lease is acquired. While the registry is unreachable the grant is kept: ids flow up to the ceiling
 *       last written, and renewal is retried.</li>
 *   <li>{@link #close()} seals the grant and writes the exact high-water mark as {@code reservedUntil} of a
 *       RELEASED record, so the next holder may start at its own clock at once.</li>
 * </ul>
 *
 * <p>The lease owns the store and closes it; siblings ({@link #openSibling()}, the extra holdings of a hot generator)
 * share it, and the last of them to close closes it.
 */
public final class LeasedWorkerLease implements WorkerLease {

    private static final Logger LOG = LoggerFactory.getLogger(LeasedWorkerLease.class);

    private final LeaseStore store;

    /** The leases using {@link #store}: this one and its siblings. */
    private final StoreUsers storeUsers;

    private final LeaseRuntimeOptions options;

    private final LeaseTerms settings;

    private final WallClock clock;

    private final LeaseAcquirer acquirer;

    private final WorkerIdCheckpoint checkpoint;

    private final ScheduledExecutorService scheduler;

    private final boolean ownScheduler;

    /**
     * Set for a sibling (an extra holding): after a loss it does not acquire again in the background. Its generator
     * issues only on the grant it added and drops the holding once that grant is revoked, so a number acquired
     * meanwhile would be held for nothing, and a claim of it whose answer was lost would stay until it expired.
     */
    private final boolean sibling;

    /** Serialises acquisition, renewal and release: every store write of this lease. */
    private final Object lock = new Object();

    private volatile OwnedRecord owned;

    private volatile boolean closed;

    /** The last reason an owned record was given up, for the message of a failed re-acquisition. */
    private volatile String lastLoss;

    /** The last renewal failure, cleared by the next success: what a health check shows while ids still flow. */
    private volatile String lastRenewalFailure;

    private final LongAdder renewals = new LongAdder();

    private final LongAdder renewalFailures = new LongAdder();

    /**
     * @param store where the records live; closed with the lease
     * @param settings the shared lease settings
     * @param layout the id layout: the pool has {@code 2^workerIdBits} numbers, and every record carries the layout
     * @param options clock, scheduler and checkpoint
     */
    public LeasedWorkerLease(final LeaseStore store, final LeaseTerms settings, final IdLayout layout, final LeaseRuntimeOptions options) {
        this(store, new StoreUsers(store), settings, layout, options, false);
    }

    private LeasedWorkerLease(final LeaseStore store, final StoreUsers storeUsers, final LeaseTerms settings, final IdLayout layout,
                              final LeaseRuntimeOptions options, final boolean sibling) {
        this.store = store;
        this.sibling = sibling;
        this.storeUsers = storeUsers;
        this.options = options;
        this.settings = settings;
        this.clock = options.clock();
        this.acquirer = new LeaseAcquirer(store, settings, layout, clock, options.claimRandom() != null ? options.claimRandom() : new SecureRandom());
        this.checkpoint = options.checkpoint() != null ? options.checkpoint() : WorkerIdCheckpoint.inDefaultDirectory(store.describe() + "|" + settings.pool());
        this.ownScheduler = options.renewalScheduler() == null;
        this.scheduler = ownScheduler ? Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "snowkey-lease-renewal-" + settings.pool());
            thread.setDaemon(true);
            return thread;
        }) : options.renewalScheduler();
    }

    @Override
    public LeaseGrant currentGrant() {
        OwnedRecord current = owned;
        if (current != null && !current.grant().isRevoked()) {
            // The renewal thread may be stuck in a registry call: the expiry is checked here too, so that no caller (a
            // generator starting a counter) is handed an expired grant. A counter already on it is bounded by the ceiling,
            // never above the expiry. The cached clock only lags, which errs towards a later check, never an early one.
            if (clock.millis() <= current.expiresAt()) {
                return current.grant();
            }
            revokeExpired(current);
        }
        return acquireWithin(settings.acquireTimeoutMillis());
    }

    private String expiredReason(final OwnedRecord expired) {
        return "the lease expired at " + Instant.ofEpochMilli(expired.expiresAt()) + " without a successful renewal (registry " + store.describe()
                + " unreachable or this process paused); another instance may hold worker id " + expired.grant().workerId() + " now";
    }

    private LeaseGrant acquireWithin(final long timeoutMillis) {
        synchronized (lock) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            RuntimeException failure = null;
            while (true) {
                if (closed) {
                    throw new LeaseUnavailableException("SnowKey lease " + describe() + " is closed; no worker id is issued any more");
                }
                OwnedRecord current = owned;
                if (current != null && !current.grant().isRevoked()) {
                    return current.grant();
                }
                if (current != null && current.takeExpiredUnreleased()) {
                    // Seen expired, yet possibly still ours: a renewal on its way when the expiry was seen may have landed
                    // since, keeping the number for another lease. Given back with the exact high-water mark, it is free
                    // (to this instance first) instead of out of use; if someone took it over, the write fails harmlessly.
                    release(current);
                }
                try {
                    return install(acquirer.acquire(preferredWorkerId(current)));
                } catch (final LeaseStoreUnavailableException | PoolExhaustedException ex) {
                    failure = ex;
                } catch (final RuntimeException ex) {
                    // Not a passing condition (e.g. no permission on the lease nodes): retrying would only hide it.
                    throw new LeaseUnavailableException(unavailableMessage(ex), ex);
                }
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    throw new LeaseUnavailableException(unavailableMessage(failure), failure);
                }
                // Waiting releases the lock, so that close() (a shutdown hook) is not held up by a retrying acquisition.
                waitForRetry(Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(settings.retryIntervalMillis())));
            }
        }
    }

    private void waitForRetry(final long nanos) {
        try {
            TimeUnit.NANOSECONDS.timedWait(lock, Math.max(1, nanos));
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new LeaseUnavailableException("SnowKey was interrupted while acquiring a worker id lease in " + describe(), ex);
        }
    }

    private String unavailableMessage(final RuntimeException cause) {
        return "SnowKey could not acquire a worker id lease in " + describe() + " within "
                + settings.acquireTimeoutMillis() + " ms (lease-acquire-timeout-milliseconds)" + (lastLoss == null ? "" : "; the previous lease ended: " + lastLoss)
                + ": " + cause.getMessage();
    }

    private OptionalInt preferredWorkerId(final OwnedRecord previous) {
        // After a loss, ask for the same number again only if it became free; the checkpoint says the same at start.
        return previous != null ? OptionalInt.of(previous.grant().workerId()) : checkpoint.read();
    }

    private LeaseGrant install(final OwnedRecord acquired) {
        owned = acquired;
        checkpoint.write(acquired.grant().workerId());
        scheduleRenewal(acquired, settings.renewIntervalMillis());
        return acquired.grant();
    }

    private void scheduleRenewal(final OwnedRecord target, final long delayMillis) {
        try {
            scheduler.schedule(() -> renewTick(target), delayMillis, TimeUnit.MILLISECONDS);
        } catch (final RejectedExecutionException ex) {
            if (!closed) {
                LOG.error("SnowKey cannot schedule the renewal of {}: {}; the lease ends at its expiry", target.grant().holder(), ex.toString());
            }
        }
    }

    private void renewTick(final OwnedRecord target) {
        if (closed || owned != target || target.grant().isRevoked()) {
            return;
        }
        boolean renewed;
        try {
            renewed = renew(target);
        } catch (final RuntimeException ex) {
            renewalFailures.increment();
            lastRenewalFailure = "renewal failed: " + ex;
            LOG.warn("SnowKey could not renew {}: {}", target.grant().holder(), ex.toString());
            renewed = false;
        }
        if (target.grant().isRevoked()) {
            if (!sibling) {
                reacquireInBackground();
            }
            return;
        }
        scheduleRenewal(target, renewed ? settings.renewIntervalMillis() : settings.retryIntervalMillis());
    }

    /**
     * One renewal attempt.
     *
     * @return true when the lease was extended; false after a revocation or when the registry did not answer
     */
    boolean renew(final OwnedRecord target) {
        synchronized (lock) {
            if (closed || owned != target || target.grant().isRevoked()) {
                return false;
            }
            long now = clock.preciseMillis();
            LeaseRecord held = target.record();
            if (now > held.expiresAt()) {
                revokeExpired(target);
                return false;
            }
            // Never lower a reservation already written: ids up to it may have been issued.
            long reservedUntil = Math.max(held.reservedUntil(), now + settings.durationMillis());
            LeaseRecord renewed = new LeaseRecord(held.pool(), held.workerId(), held.owner(), held.fencingToken(), reservedUntil, reservedUntil, LeaseRecord.State.HELD,
                    acquirer.layout(), acquirer.incarnation());
            try {
                Optional<Long> version = target.send(renewed, store::compareAndSet);
                if (version.isPresent()) {
                    target.written(renewed, version.get());
                    target.grant().extendCeiling(reservedUntil);
                    renewals.increment();
                    lastRenewalFailure = null;
                    return true;
                }
                return recoverFromLostCompareAndSet(target);
            } catch (final LeaseStoreUnavailableException ex) {
                renewalFailures.increment();
                lastRenewalFailure = "renewal failed, ids flow up to " + Instant.ofEpochMilli(target.grant().ceilingMillis()) + ": " + ex.getMessage();
                LOG.warn("SnowKey could not renew {} (registry unreachable; ids keep flowing up to {}, retrying): {}", target.grant().holder(),
                        Instant.ofEpochMilli(target.grant().ceilingMillis()), ex.getMessage());
                return false;
            } catch (final CorruptLeaseRecordException ex) {
                revoke(target, ex.getMessage());
                return false;
            }
        }
    }

    /**
     * A compare-and-set failed. Either another process took the number over (revoke), or our own previous write
     * succeeded but its answer was lost on the wire (the record is still ours with a newer version: adopt it).
     */
    private boolean recoverFromLostCompareAndSet(final OwnedRecord target) {
        LeaseRecord held = target.record();
        Optional<StoredLease> stored = store.read(held.pool(), held.workerId());
        if (stored.isPresent() && target.isOwnRecord(stored.get().record())) {
            target.adopt(stored.get().record(), stored.get().storeVersion());
            target.grant().extendCeiling(stored.get().record().reservedUntil());
            renewals.increment();
            lastRenewalFailure = null;
            return true;
        }
        revoke(target, "worker id " + held.workerId() + " was taken over: " + store.locationOf(held.pool(), held.workerId()) + " now holds "
                + stored.map(each -> "owner " + each.record().owner() + ", fencing token " + each.record().fencingToken() + ", " + each.record().state())
                        .orElse("no record"));
        return false;
    }

    /** Revokes an owned record whose expiry passed, remembering that its record may still be ours (see {@link #acquireWithin}). */
    private void revokeExpired(final OwnedRecord target) {
        target.markExpired();
        revoke(target, expiredReason(target));
    }

    private void revoke(final OwnedRecord target, final String reason) {
        if (target.grant().isRevoked()) {
            return;
        }
        target.grant().revoke(reason);
        lastLoss = reason;
        LOG.warn("SnowKey stopped issuing on {}: {}", target.grant().holder(), reason);
    }

    /** Acquires the next lease at once after a loss, so that inserts do not pay for it; on failure they retry. */
    private void reacquireInBackground() {
        if (closed) {
            return;
        }
        try {
            LeaseGrant next = acquireWithin(0);
            LOG.info("SnowKey moved to {}", next.holder());
        } catch (final RuntimeException ex) {
            LOG.warn("SnowKey could not acquire a new lease yet; the next id request retries: {}", ex.getMessage());
        }
    }

    @Override
    public String describe() {
        return store.describe() + " pool '" + settings.pool() + "'";
    }

    @Override
    public LeaseStatus status() {
        OwnedRecord current = owned;
        boolean healthy = !closed && current != null && !current.grant().isRevoked();
        String problem;
        if (closed) {
            problem = "closed";
        } else if (current == null) {
            problem = lastLoss != null ? lastLoss : "no lease acquired yet";
        } else if (current.grant().isRevoked()) {
            problem = current.grant().revocationReason();
        } else {
            problem = lastRenewalFailure;
        }
        return new LeaseStatus(store.describe(), settings.pool(), current == null ? -1 : current.grant().workerId(),
                current == null ? -1 : current.expiresAt(), current == null ? -1 : current.grant().ceilingMillis(), healthy, problem,
                renewals.sum(), renewalFailures.sum());
    }

    /** The owned record in force, if any, without acquiring: for operators and tests. */
    public Optional<LeaseGrant> heldGrant() {
        OwnedRecord current = owned;
        return current == null || current.grant().isRevoked() ? Optional.empty() : Optional.of(current.grant());
    }

    public LeaseTerms settings() {
        return settings;
    }

    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            lock.notifyAll();
            OwnedRecord current = owned;
            if (current != null && (!current.grant().isRevoked() || current.takeExpiredUnreleased())) {
                release(current);
            }
            acquirer.abandon();
        }
        if (ownScheduler) {
            scheduler.shutdownNow();
        }
        storeUsers.leave();
    }

    /**
     * A lease of another number of this pool on this lease's store, with the same clock and claim random source (a
     * renewal thread of its own unless a scheduler was given) and no checkpoint: a restart should prefer the number
     * of the scope's own lease, not an extra one's.
     *
     * @throws LeaseUnavailableException when this lease and every sibling are closed (the store is closed)
     */
    @Override
    public Optional<WorkerLease> openSibling() {
        storeUsers.join(describe());
        return Optional.of(new LeasedWorkerLease(store, storeUsers, settings, acquirer.layout(), options.withCheckpoint(WorkerIdCheckpoint.none()), true));
    }

    @Override
    public boolean opensSiblings() {
        return true;
    }

    /** Numbers of the pool with no live holder: neither held and unexpired, nor unreadable (never claimed). */
    @Override
    public OptionalInt freeWorkerIds() {
        LeaseStore.PoolListing listing = store.list(settings.pool());
        long now = clock.preciseMillis();
        int inUse = listing.corrupt().size();
        for (StoredLease each : listing.leases().values()) {
            if (!each.record().isClaimable(now)) {
                inUse++;
            }
        }
        return OptionalInt.of(acquirer.layout().workerIdCount() - inUse);
    }

    /** Counts the leases sharing one store, which the last one to close closes. */
    private static final class StoreUsers {

        private final LeaseStore store;

        private int users = 1;

        StoreUsers(final LeaseStore store) {
            this.store = store;
        }

        synchronized void join(final String description) {
            if (users == 0) {
                throw new LeaseUnavailableException("SnowKey lease " + description + " is closed; no worker id is issued any more");
            }
            users++;
        }

        void leave() {
            synchronized (this) {
                users--;
                if (users > 0) {
                    return;
                }
            }
            store.close();
        }
    }

    /**
     * Writes the exact high-water mark, or the reservation someone else wrote into the record while it stayed ours if
     * that is higher (see {@link OwnedRecord#releasedReservation}); on failure the record simply expires, reserved as
     * last renewed. A failed compare-and-set is checked like a renewal's: a renewal applied with its answer lost (or
     * an operator's repair) left the record ours at a newer version, and the release goes through against that version.
     */
    private void release(final OwnedRecord current) {
        long highWater = current.grant().sealForRelease("released: the lease was closed");
        LeaseRecord held = current.record();
        long now = clock.preciseMillis();
        try {
            Optional<Long> version = store.compareAndSet(released(held, now, current.releasedReservation(held, highWater)), current.storeVersion());
            if (version.isEmpty()) {
                Optional<StoredLease> stored = store.read(held.pool(), held.workerId());
                if (stored.isPresent() && current.isOwnRecord(stored.get().record())) {
                    version = store.compareAndSet(released(held, now, current.releasedReservation(stored.get().record(), highWater)),
                            stored.get().storeVersion());
                }
            }
            if (version.isPresent()) {
                LOG.info("SnowKey released {} with high-water mark {}", current.grant().holder(), Instant.ofEpochMilli(highWater));
            } else {
                LOG.warn("SnowKey did not release {}: the record changed meanwhile (taken over)", current.grant().holder());
            }
        } catch (final RuntimeException ex) {
            LOG.warn("SnowKey could not release {} ({}); the number becomes free when the lease expires at {}", current.grant().holder(), ex.getMessage(),
                    Instant.ofEpochMilli(held.expiresAt()));
        }
    }

    private LeaseRecord released(final LeaseRecord held, final long now, final long reservedUntil) {
        return new LeaseRecord(held.pool(), held.workerId(), held.owner(), held.fencingToken(), Math.max(now, reservedUntil), reservedUntil,
                LeaseRecord.State.RELEASED, acquirer.layout(), acquirer.incarnation());
    }

    /**
     * The pool's records carry the layout this lease was opened with, and every holder of the pool reads floors and
     * reservations in that layout's time frame: a generator of another layout (another epoch, other worker-id bits)
     * would issue ids that the pool's fences do not describe.
     */
    @Override
    public void requireLayout(final IdLayout layout) {
        if (!layout.equals(acquirer.layout())) {
            throw new IllegalArgumentException("SnowKey lease " + describe() + " was opened for the layout " + LayoutText.format(acquirer.layout())
                    + ", but the generator's layout is " + LayoutText.format(layout) + ": open the lease with the generator's layout");
        }
    }

    @Override
    public String toString() {
        return "LeasedWorkerLease[" + describe() + ", " + (owned == null ? "not acquired" : owned.grant()) + "]";
    }
}
