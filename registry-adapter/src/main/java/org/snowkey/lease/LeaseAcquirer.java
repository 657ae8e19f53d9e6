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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.lease.store.CorruptLeaseRecordException;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.lease.store.StoredLease;

/**
 * Claims a worker id of a pool (DESIGN section 3, acquire): by create for a number never used, by compare-and-set
 * for a released or expired record. The new holding's floor is {@code max(now, old.reservedUntil + 1)}, so it
 * starts above every timestamp any predecessor may have issued, whatever the clocks say.
 *
 * <p>Order of the attempt: the number held last (checkpoint), then free numbers last owned by this instance id,
 * then every number starting at a hash of the instance id, so that concurrent starts rarely race for one number.
 * A record that cannot be parsed is never claimed.
 */
final class LeaseAcquirer {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseAcquirer.class);

    /** How many holders an exhaustion message lists before it abbreviates. */
    private static final int MAX_LISTED_HOLDERS = 32;

    private final LeaseStore store;

    private final LeaseSettings settings;

    private final int workerIdBits;

    private final int poolSize;

    private final WallClock clock;

    LeaseAcquirer(final LeaseStore store, final LeaseSettings settings, final int workerIdBits, final WallClock clock) {
        this.store = store;
        this.settings = settings;
        this.workerIdBits = workerIdBits;
        this.poolSize = 1 << workerIdBits;
        this.clock = clock;
    }

    /**
     * One pass over the pool.
     *
     * @param preferred the number held last, if known
     * @throws PoolExhaustedException when no number could be claimed
     * @throws org.snowkey.lease.store.LeaseStoreUnavailableException when the registry cannot be reached
     */
    Holding acquire(final OptionalInt preferred) {
        if (preferred.isPresent() && preferred.getAsInt() >= 0 && preferred.getAsInt() < poolSize) {
            Optional<Holding> claimed = tryPreferred(preferred.getAsInt());
            if (claimed.isPresent()) {
                return claimed.get();
            }
        }
        LeaseStore.PoolListing listing = store.list(settings.pool());
        for (Map.Entry<Integer, CorruptLeaseRecordException> each : listing.corrupt().entrySet()) {
            LOG.warn("SnowKey skips worker id {} of pool '{}': {}", each.getKey(), settings.pool(), each.getValue().getMessage());
        }
        for (int each : candidates(listing)) {
            if (listing.corrupt().containsKey(each)) {
                continue;
            }
            Optional<Holding> claimed = claim(each, Optional.ofNullable(listing.leases().get(each)));
            if (claimed.isPresent()) {
                return claimed.get();
            }
        }
        throw new PoolExhaustedException(exhaustionMessage(store.list(settings.pool())));
    }

    private Optional<Holding> tryPreferred(final int workerId) {
        try {
            return claim(workerId, store.read(settings.pool(), workerId));
        } catch (final CorruptLeaseRecordException ex) {
            LOG.warn("SnowKey does not reuse its last worker id {}: {}", workerId, ex.getMessage());
            return Optional.empty();
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
    private Optional<Holding> claim(final int workerId, final Optional<StoredLease> existing) {
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
        long floor = existing.map(stored -> Math.max(now, stored.record().reservedUntil() + 1)).orElse(now);
        long token = existing.map(stored -> stored.record().fencingToken() + 1).orElse(1L);
        // Reserve one lease duration above the floor; expiry and reservation coincide (reservedUntil <= expiresAt).
        long reservedUntil = floor + settings.durationMillis();
        LeaseRecord record = new LeaseRecord(settings.pool(), workerId, settings.instanceId(), token, reservedUntil, reservedUntil, LeaseRecord.State.HELD);
        Optional<Long> version = existing.isPresent() ? store.compareAndSet(record, existing.get().storeVersion()) : store.create(record);
        if (version.isEmpty()) {
            return Optional.empty();
        }
        String holder = "worker id " + workerId + " of pool '" + settings.pool() + "' in " + store.describe() + " (owner " + settings.instanceId()
                + ", fencing token " + token + ")";
        LOG.info("SnowKey acquired {}: may issue from {}{}", holder, Instant.ofEpochMilli(floor),
                existing.map(stored -> ", after " + stored.record().owner() + " (" + stored.record().state() + ", reserved until "
                        + Instant.ofEpochMilli(stored.record().reservedUntil()) + ")").orElse(""));
        return Optional.of(new Holding(new LeaseGrant(workerId, floor, reservedUntil, holder), record, version.get()));
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
