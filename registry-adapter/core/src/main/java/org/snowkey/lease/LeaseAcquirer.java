package org.snowkey.lease;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import java.util.random.RandomGenerator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.lease.store.CorruptLeaseRecordException;
import org.snowkey.lease.store.LayoutText;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.lease.store.LeaseStoreUnavailableException;
import org.snowkey.lease.store.StoredLease;

/**
 * Claims a worker id of a pool (docs/design.md, "Worker id leases", acquire): by create for a number never used, by compare-and-set
 * for a released or expired record. The new grant's floor is {@code max(now, old.reservedUntil + 1)}, so it
 * starts above every timestamp any predecessor may have issued, whatever the clocks say.
 *
 * <p>Order of the attempt: the number held last (checkpoint), then free numbers last owned by this instance id,
 * then every number starting at a hash of the instance id, so that concurrent starts rarely race for one number.
 * A record that cannot be parsed is never claimed.
 *
 * <p>Every record carries the writer's id layout, and a pool is used with one layout only
 * (registry-adapter/docs/lease-safety.md): a record of another layout fails the acquisition, and so does one found
 * by the check that follows every claim, which catches two layouts starting on an empty pool at once.
 *
 * <p>A claim whose write the store applied but answered with an error is remembered; the next acquisition reads
 * the number first and adopts it when it holds exactly the record written, so that it never leaks.
 *
 * <p>Not thread-safe: the lease calls it under its lock.
 */
final class LeaseAcquirer {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseAcquirer.class);

    /**
     * Fencing tokens grow by 1 to 2^31 per claim: two identical claims are a 1 in 2^31 chance, and a number can be
     * claimed 2^31 times before its token reaches the largest value a JDBC row holds.
     */
    private static final long MAX_TOKEN_STEP = 1L << 31;

    /** The largest token a claim still raises: its successor stays within the largest value a JDBC row holds. */
    private static final long MAX_CLAIMABLE_TOKEN = Long.MAX_VALUE / 2 - MAX_TOKEN_STEP - 1;

    /** How many holders an exhaustion message lists before it abbreviates. */
    private static final int MAX_LISTED_HOLDERS = 32;

    private final LeaseStore store;

    private final LeaseTerms settings;

    private final IdLayout layout;

    private final int workerIdBits;

    private final int poolSize;

    private final WallClock clock;

    /** Draws the fencing token step of each claim, so that no other process writes exactly our claim (see {@link #claim}). */
    private final RandomGenerator tokenSteps;

    /**
     * This lease object's nonce, written into every claim: two processes with one instance id (a replacement started
     * while the first hung in a claim whose answer was lost) then never write equal records, so neither adopts the
     * other's claim as its own, whatever their fencing token steps and floors. Drawn apart from the claim random source
     * on purpose: two leases given one seeded source (tests, the simulator) still differ, and only equality matters,
     * so a simulated schedule still replays exactly.
     */
    private final String incarnation;

    /** A claim that may have been applied although the store answered with an error: resolved by the next acquisition. */
    private Claim ambiguous;

    LeaseAcquirer(final LeaseStore store, final LeaseTerms settings, final IdLayout layout, final WallClock clock, final RandomGenerator tokenSteps) {
        this.store = store;
        this.settings = settings;
        this.layout = layout;
        this.workerIdBits = layout.workerIdBits();
        this.poolSize = 1 << workerIdBits;
        this.clock = clock;
        this.tokenSteps = tokenSteps;
        this.incarnation = UUID.randomUUID().toString();
    }

    String incarnation() {
        return incarnation;
    }

    IdLayout layout() {
        return layout;
    }

    /**
     * One pass over the pool.
     *
     * @param preferred the number held last, if known
     * @throws PoolExhaustedException when no number could be claimed
     * @throws UnusablePoolException when the pool is used with another id layout
     * @throws LeaseStoreUnavailableException when the registry cannot be reached
     */
    OwnedRecord acquire(final OptionalInt preferred) {
        Optional<Claim> adopted = resolveAmbiguousClaim();
        Claim claim = adopted.isPresent() ? adopted.get() : claimNew(preferred);
        return verifyLayout(claim);
    }

    /**
     * Reads the number of a claim whose answer was an error. Exactly the record written, incarnation included, means
     * the write was applied: the record is ours, and adopting it is the only way not to leak it. A stored record
     * without an incarnation is compared on its other fields ({@link LeaseRecord#isExactly}). Anything else means it was not (or the
     * number moved on since), and the claim is forgotten. An adopted record that expired meanwhile is not adopted:
     * it is free, and the scan below claims it afresh (first, as a number this instance owned).
     */
    private Optional<Claim> resolveAmbiguousClaim() {
        Claim attempt = ambiguous;
        if (attempt == null) {
            return Optional.empty();
        }
        Optional<StoredLease> stored;
        try {
            stored = store.read(settings.pool(), attempt.record().workerId());
        } catch (final CorruptLeaseRecordException ex) {
            ambiguous = null;
            return Optional.empty();
        }
        ambiguous = null;
        if (stored.isEmpty() || !stored.get().record().isExactly(attempt.record()) || stored.get().record().isClaimable(clock.preciseMillis())) {
            return Optional.empty();
        }
        LOG.info("SnowKey adopts worker id {} at {}: its claim was applied although the registry answered with an error",
                attempt.record().workerId(), store.locationOf(settings.pool(), attempt.record().workerId()));
        return Optional.of(attempt.at(stored.get().storeVersion()));
    }

    private Claim claimNew(final OptionalInt preferred) {
        if (preferred.isPresent() && preferred.getAsInt() >= 0 && preferred.getAsInt() < poolSize) {
            Optional<Claim> claimed = tryPreferred(preferred.getAsInt());
            if (claimed.isPresent()) {
                return claimed.get();
            }
        }
        LeaseStore.PoolListing listing = store.list(settings.pool());
        failOnOtherLayout(listing);
        for (Map.Entry<Integer, CorruptLeaseRecordException> each : listing.corrupt().entrySet()) {
            LOG.warn("SnowKey skips worker id {} of pool '{}': {}", each.getKey(), settings.pool(), each.getValue().getMessage());
        }
        for (int each : candidates(listing)) {
            if (listing.corrupt().containsKey(each)) {
                continue;
            }
            Optional<Claim> claimed = claim(each, Optional.ofNullable(listing.leases().get(each)));
            if (claimed.isPresent()) {
                return claimed.get();
            }
        }
        throw new PoolExhaustedException(exhaustionMessage(store.list(settings.pool())));
    }

    private Optional<Claim> tryPreferred(final int workerId) {
        Optional<StoredLease> existing;
        try {
            existing = store.read(settings.pool(), workerId);
        } catch (final CorruptLeaseRecordException ex) {
            LOG.warn("SnowKey does not reuse its last worker id {}: {}", workerId, ex.getMessage());
            return Optional.empty();
        }
        existing.ifPresent(this::failOnOtherLayout);
        return claim(workerId, existing);
    }

    /**
     * After a claim, the whole pool is read again: two instances of different layouts that started on an empty (or
     * older) pool at once both see the other's record now, and both give their number back and fail, rather than
     * issue. A failed listing keeps the claim for the next acquisition, which adopts and checks it.
     */
    private OwnedRecord verifyLayout(final Claim claim) {
        LeaseStore.PoolListing listing;
        try {
            listing = store.list(settings.pool());
        } catch (final LeaseStoreUnavailableException ex) {
            ambiguous = claim;
            throw ex;
        }
        try {
            failOnOtherLayout(listing);
        } catch (final UnusablePoolException ex) {
            giveBack(claim);
            throw ex;
        }
        return owned(claim);
    }

    private void failOnOtherLayout(final LeaseStore.PoolListing listing) {
        for (StoredLease each : listing.leases().values()) {
            failOnOtherLayout(each);
        }
    }

    private void failOnOtherLayout(final StoredLease stored) {
        LeaseRecord record = stored.record();
        if (record.layout() != null && !record.layout().equals(layout)) {
            throw new UnusablePoolException("SnowKey lease pool '" + settings.pool() + "' in " + store.describe() + " is used with the id layout "
                    + LayoutText.format(record.layout()) + " (worker id " + record.workerId() + ", owner " + record.owner() + ", " + record.state()
                    + "), but this instance is configured with " + LayoutText.format(layout) + ". Instances of one pool with different "
                    + PropertyNames.WORKER_ID_BITS + ", " + PropertyNames.SEQUENCE_LOW_BITS + " or " + PropertyNames.EPOCH
                    + " issue the same ids: configure the pool's layout, or use another " + PropertyNames.LEASE_POOL
                    + " (ids issued under the old layout stay in your tables, so a pool never changes its layout)");
        }
    }

    /**
     * Releases a number claimed by mistake (another layout in the pool), as the record was before the claim: its
     * layout (none for a new record) and a reservation no lower than before, since nothing was issued on it.
     */
    private void giveBack(final Claim claim) {
        LeaseRecord held = claim.record();
        long reservedUntil = claim.floor() - 1;
        LeaseRecord released = new LeaseRecord(held.pool(), held.workerId(), held.owner(), held.fencingToken(), reservedUntil, reservedUntil,
                LeaseRecord.State.RELEASED, claim.previousLayout(), held.incarnation());
        try {
            if (store.compareAndSet(released, claim.storeVersion()).isEmpty()) {
                LOG.warn("SnowKey could not give back worker id {} at {}: it changed meanwhile", held.workerId(), store.locationOf(held.pool(), held.workerId()));
            }
        } catch (final RuntimeException ex) {
            // Possibly not applied: the next acquisition (or close) of this lease reads the number again and retries.
            ambiguous = claim;
            LOG.warn("SnowKey could not give back worker id {} at {} ({}); until it does, the record carries layout {}: if this process stops "
                    + "first, release the record with the lease admin tool", held.workerId(), store.locationOf(held.pool(), held.workerId()),
                    ex.getMessage(), LayoutText.format(layout));
        }
    }

    /**
     * On close: a claim still unresolved (its answer lost, or refused for another layout) is given back if the store
     * holds it, so that a failed start does not leave a number held until expiry, nor this layout on the record.
     */
    void abandon() {
        Claim attempt = ambiguous;
        ambiguous = null;
        if (attempt == null) {
            return;
        }
        try {
            Optional<StoredLease> stored = store.read(settings.pool(), attempt.record().workerId());
            if (stored.isPresent() && stored.get().record().isExactly(attempt.record())) {
                giveBack(attempt.at(stored.get().storeVersion()));
            }
        } catch (final RuntimeException ex) {
            LOG.warn("SnowKey could not check worker id {} at {} on close: {}", attempt.record().workerId(),
                    store.locationOf(settings.pool(), attempt.record().workerId()), ex.getMessage());
        }
    }

    /**
     * Free numbers last owned by this instance id first, then all numbers from the hash of the instance id. Lazy: a
     * pool may have two million numbers, and a scan usually stops at the first free one.
     */
    private Iterable<Integer> candidates(final LeaseStore.PoolListing listing) {
        Set<Integer> owned = new LinkedHashSet<>();
        long now = clock.preciseMillis();
        listing.leases().forEach((workerId, stored) -> {
            if (workerId < poolSize && settings.instanceId().equals(stored.record().owner()) && stored.record().isClaimable(now)) {
                owned.add(workerId);
            }
        });
        int start = Math.floorMod(mix(settings.instanceId().hashCode()), poolSize);
        return () -> new Iterator<>() {

            private final Iterator<Integer> first = owned.iterator();

            private int scanned;

            private Integer next = advance();

            private Integer advance() {
                if (first.hasNext()) {
                    return first.next();
                }
                while (scanned < poolSize) {
                    int candidate = (start + scanned++) % poolSize;
                    if (!owned.contains(candidate)) {
                        return candidate;
                    }
                }
                return null;
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public Integer next() {
                if (next == null) {
                    throw new NoSuchElementException();
                }
                Integer result = next;
                next = advance();
                return result;
            }
        };
    }

    /** Spreads similar instance ids (host-1, host-2...) over the pool; String.hashCode alone keeps them adjacent. */
    private static int mix(final int hash) {
        int h = hash * 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    /** Claims one number if it is free, or returns empty (held, or another process won the race). */
    private Optional<Claim> claim(final int workerId, final Optional<StoredLease> existing) {
        long now = clock.preciseMillis();
        if (existing.isPresent() && !existing.get().record().isClaimable(now)) {
            return Optional.empty();
        }
        if (existing.isPresent() && existing.get().record().reservedUntil() - now > settings.durationMillis()) {
            // A free record reserved further ahead than a whole lease: a predecessor's clock far ahead of ours, or a
            // damaged value (up to Long.MAX_VALUE, where reservedUntil + 1 would overflow to a floor in the past).
            // Starting above it would stall or break uniqueness; the number stays out of use, like a corrupt record.
            LOG.warn("SnowKey skips worker id {} at {}: it is free but reserved until {} ms from now, more than a lease duration; "
                    + "repair the record once its holder's clock is fixed", workerId, store.locationOf(settings.pool(), workerId),
                    existing.get().record().reservedUntil() - now);
            return Optional.empty();
        }
        if (existing.isPresent() && existing.get().record().fencingToken() > MAX_CLAIMABLE_TOKEN) {
            // A damaged token: the next one would not fit in a record (adding the step would overflow to a negative token,
            // which every later read reports as corrupt). The number stays out of use, like a corrupt record.
            LOG.warn("SnowKey skips worker id {} at {}: its fencing token {} leaves no room for another claim; repair the record",
                    workerId, store.locationOf(settings.pool(), workerId), existing.get().record().fencingToken());
            return Optional.empty();
        }
        long floor = existing.map(stored -> Math.max(now, stored.record().reservedUntil() + 1)).orElse(now);
        // The token grows by a random step, not by one: two processes with one instance id (a replacement started while
        // the first hung in a claim whose answer was lost) that claim a number from the same record at the same floor
        // would otherwise write identical records, and the first would adopt the other's claim as its own.
        long token = existing.map(stored -> stored.record().fencingToken()).orElse(0L) + 1 + tokenSteps.nextLong(MAX_TOKEN_STEP);
        // Reserve one lease duration above the floor; expiry and reservation coincide (reservedUntil <= expiresAt).
        long reservedUntil = floor + settings.durationMillis();
        LeaseRecord record = new LeaseRecord(settings.pool(), workerId, settings.instanceId(), token, reservedUntil, reservedUntil, LeaseRecord.State.HELD,
                layout, incarnation);
        Claim attempt = new Claim(record, floor, existing.map(stored -> stored.record().layout()).orElse(null), -1);
        Optional<Long> version;
        try {
            version = existing.isPresent() ? store.compareAndSet(record, existing.get().storeVersion()) : store.create(record);
        } catch (final LeaseStoreUnavailableException ex) {
            // The write may have been applied with only its answer lost: the next acquisition looks before it claims anew.
            ambiguous = attempt;
            throw ex;
        }
        if (version.isEmpty()) {
            return Optional.empty();
        }
        LOG.info("SnowKey acquired {}: may issue from {}{}", holder(record), Instant.ofEpochMilli(floor),
                existing.map(stored -> ", after " + stored.record().owner() + " (" + stored.record().state() + ", reserved until "
                        + Instant.ofEpochMilli(stored.record().reservedUntil()) + ")").orElse(""));
        return Optional.of(attempt.at(version.get()));
    }

    /**
     * One claim: the record written, the floor of its grant, the layout the record had before (null for a new one),
     * and the store version once known.
     */
    private record Claim(LeaseRecord record, long floor, IdLayout previousLayout, long storeVersion) {

        Claim at(final long version) {
            return new Claim(record, floor, previousLayout, version);
        }

    }

    private OwnedRecord owned(final Claim claim) {
        LeaseRecord record = claim.record();
        return new OwnedRecord(new LeaseGrant(record.workerId(), claim.floor(), record.reservedUntil(), holder(record)), record, claim.storeVersion());
    }

    private String holder(final LeaseRecord record) {
        return "worker id " + record.workerId() + " of pool '" + record.pool() + "' in " + store.describe() + " (owner " + record.owner() + ", fencing token "
                + record.fencingToken() + ")";
    }

    private String exhaustionMessage(final LeaseStore.PoolListing listing) {
        long now = clock.preciseMillis();
        List<String> holders = new ArrayList<>();
        listing.leases().forEach((workerId, stored) -> {
            LeaseRecord record = stored.record();
            holders.add(workerId + " by " + record.owner() + (record.isClaimable(now) ? " (free now)" : " until " + Instant.ofEpochMilli(record.expiresAt())));
        });
        listing.corrupt().forEach((workerId, ex) -> holders.add(workerId + " corrupt at " + store.locationOf(settings.pool(), workerId)));
        String listed = holders.size() <= MAX_LISTED_HOLDERS ? String.join("; ", holders)
                : String.join("; ", holders.subList(0, MAX_LISTED_HOLDERS)) + "; ... and " + (holders.size() - MAX_LISTED_HOLDERS) + " more";
        return "SnowKey lease pool '" + settings.pool() + "' in " + store.describe() + " has no free worker id: all " + poolSize
                + " numbers (worker-id-bits = " + workerIdBits + ") are held. Holders: " + listed
                + ". Stop an instance, wait for a crashed holder's lease to expire, raise worker-id-bits, or use another lease-pool";
    }
}
