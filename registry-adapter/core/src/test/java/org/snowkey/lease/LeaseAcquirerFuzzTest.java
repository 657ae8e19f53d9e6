package org.snowkey.lease;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.lease.store.CorruptLeaseRecordException;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.lease.store.StoredLease;
import org.snowkey.lease.testing.TestScope;

/**
 * Records with random and extreme values (every number from 0 to Long.MAX_VALUE, any state), and corrupt records,
 * fed to the acquirer through a store in memory. A successor's floor must lie above the predecessor's
 * {@code reservedUntil} (no timestamp range is reused), or acquisition must fail with a clear exception; a corrupt
 * record is never claimed, not even when it is the number this instance held last.
 */
class LeaseAcquirerFuzzTest {

    private static final String POOL = "fuzz";

    private static final LeaseTerms SETTINGS = new LeaseTerms(POOL, 5_000, 1_000, "fuzzer");

    static final long[] EXTREMES = {0, 1, 1_700_000_000_000L, System.currentTimeMillis(), System.currentTimeMillis() + 86_400_000L,
            (1L << 41) + 1_735_689_600_000L, Long.MAX_VALUE / 2, Long.MAX_VALUE - 5_000, Long.MAX_VALUE - 1, Long.MAX_VALUE};

    @Test
    void aSuccessorAlwaysStartsAboveItsPredecessorsReservation() {
        Random random = new Random(11L);
        List<String> reused = new ArrayList<>();
        for (int i = 0; i < TestScope.fuzzCases(5_000); i++) {
            MemoryStore store = new MemoryStore();
            long reservedUntil = random.nextBoolean() ? EXTREMES[random.nextInt(EXTREMES.length)] : Math.abs(random.nextLong());
            long expiresAt = random.nextBoolean() ? EXTREMES[random.nextInt(EXTREMES.length)] : Math.abs(random.nextLong());
            long token = random.nextBoolean() ? EXTREMES[random.nextInt(EXTREMES.length)] : random.nextInt(1_000);
            LeaseRecord old = new LeaseRecord(POOL, 0, "previous", token, expiresAt, reservedUntil, random.nextBoolean() ? LeaseRecord.State.HELD
                    : LeaseRecord.State.RELEASED);
            store.put(old);
            LeaseAcquirer acquirer = new LeaseAcquirer(store, SETTINGS, IdLayout.of(1, 0, IdLayout.defaults().epochMillis()), WallClock.system(), new Random(i));
            OwnedRecord owned;
            try {
                owned = acquirer.acquire(OptionalInt.of(0));
            } catch (final PoolExhaustedException | CorruptLeaseRecordException ex) {
                assertFalse(ex.getMessage() == null || ex.getMessage().isBlank(), ex.toString());
                continue;
            } catch (final RuntimeException ex) {
                fail("unexpected exception for " + old, ex);
                return;
            }
            LeaseGrant grant = owned.grant();
            if (grant.workerId() == 0 && grant.floorMillis() <= old.reservedUntil()) {
                reused.add(old + " -> floor " + grant.floorMillis() + ", ceiling " + grant.ceilingMillis());
            }
            assertTrue(grant.ceilingMillis() >= grant.floorMillis() || grant.workerId() != 0 || reused.size() > 0,
                    "a grant whose ceiling " + grant.ceilingMillis() + " is below its floor " + grant.floorMillis() + " after " + old);
        }
        assertTrue(reused.isEmpty(), reused.size() + " successors start at or below their predecessor's reservedUntil (timestamps reused), e.g. "
                + reused.subList(0, Math.min(3, reused.size())));
    }

    @Test
    void aCorruptRecordIsNeverClaimed() {
        Random random = new Random(12L);
        for (int i = 0; i < TestScope.fuzzCases(2_000); i++) {
            MemoryStore store = new MemoryStore();
            int bits = 1 + random.nextInt(3);
            int size = 1 << bits;
            int corrupt = random.nextInt(size);
            store.corrupt.put(corrupt, "{\"pool\":\"fuzz\",\"workerId\":" + corrupt + ",\"reservedUntil\":");
            // Every other number is free, held, or expired at random.
            for (int w = 0; w < size; w++) {
                if (w != corrupt && random.nextBoolean()) {
                    long now = System.currentTimeMillis();
                    store.put(new LeaseRecord(POOL, w, "other", 1, random.nextBoolean() ? now + 60_000 : now - 1, now, random.nextBoolean()
                            ? LeaseRecord.State.HELD : LeaseRecord.State.RELEASED));
                }
            }
            LeaseAcquirer acquirer = new LeaseAcquirer(store, SETTINGS, IdLayout.of(bits, 0, IdLayout.defaults().epochMillis()), WallClock.system(), new Random(i));
            try {
                OwnedRecord owned = acquirer.acquire(OptionalInt.of(corrupt));
                assertNotEquals(corrupt, owned.grant().workerId(), "the corrupt record of worker id " + corrupt + " was claimed");
            } catch (final PoolExhaustedException ex) {
                assertFalse(ex.getMessage().isBlank());
            }
            assertTrue(store.corrupt.containsKey(corrupt) && !store.leases.containsKey(corrupt), "the corrupt record was overwritten");
        }
    }

    /** A store in memory with versions; numbers in {@code corrupt} hold content that cannot be parsed. */
    static final class MemoryStore implements LeaseStore {

        final Map<Integer, StoredLease> leases = new HashMap<>();

        final Map<Integer, String> corrupt = new HashMap<>();

        void put(final LeaseRecord record) {
            leases.put(record.workerId(), new StoredLease(record, 1));
        }

        @Override
        public String describe() {
            return "memory";
        }

        @Override
        public String locationOf(final String pool, final int workerId) {
            return "memory/" + pool + "/" + workerId;
        }

        @Override
        public Optional<StoredLease> read(final String pool, final int workerId) {
            if (corrupt.containsKey(workerId)) {
                throw new CorruptLeaseRecordException(locationOf(pool, workerId), corrupt.get(workerId), null);
            }
            return Optional.ofNullable(leases.get(workerId));
        }

        @Override
        public PoolListing list(final String pool) {
            Map<Integer, CorruptLeaseRecordException> bad = new HashMap<>();
            corrupt.forEach((id, content) -> bad.put(id, new CorruptLeaseRecordException(locationOf(pool, id), content, null)));
            return new PoolListing(Map.copyOf(leases), bad);
        }

        @Override
        public Optional<Long> create(final LeaseRecord record) {
            if (leases.containsKey(record.workerId()) || corrupt.containsKey(record.workerId())) {
                return Optional.empty();
            }
            leases.put(record.workerId(), new StoredLease(record, 0));
            return Optional.of(0L);
        }

        @Override
        public Optional<Long> compareAndSet(final LeaseRecord record, final long expectedStoreVersion) {
            StoredLease current = leases.get(record.workerId());
            if (current == null || current.storeVersion() != expectedStoreVersion) {
                return Optional.empty();
            }
            leases.put(record.workerId(), new StoredLease(record, expectedStoreVersion + 1));
            return Optional.of(expectedStoreVersion + 1);
        }

        @Override
        public boolean delete(final String pool, final int workerId, final long expectedStoreVersion) {
            return leases.remove(workerId) != null;
        }

        @Override
        public void close() {
        }
    }
}
