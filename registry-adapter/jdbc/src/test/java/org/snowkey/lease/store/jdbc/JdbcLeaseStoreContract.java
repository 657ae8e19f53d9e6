package org.snowkey.lease.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.snowkey.lease.store.CorruptLeaseRecordException;
import org.snowkey.lease.store.LeaseRecord.State;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.LeaseStore.PoolListing;
import org.snowkey.lease.store.LeaseStoreUnavailableException;
import org.snowkey.lease.store.StoredLease;
import org.snowkey.store.jdbc.JdbcStoreSettings;
import org.snowkey.store.jdbc.JdbcTableName;

/**
 * What the JDBC lease store promises, run against each database: atomic create and compare-and-set, lazily
 * created rows, a table created by the portable DDL, and corrupt rows reported with their location and
 * content instead of being taken for free numbers.
 */
abstract class JdbcLeaseStoreContract {

    private static final int RACERS = 16;

    private final TestDatabase database;

    private final List<JdbcTableName> tables = new ArrayList<>();

    private final List<JdbcLeaseStore> stores = new ArrayList<>();

    private JdbcTableName table;

    private JdbcLeaseStore store;

    JdbcLeaseStoreContract(final TestDatabase database) {
        this.database = database;
    }

    @BeforeEach
    void setUp() {
        database.assumeAvailable();
        table = newTable();
        store = newStore(table);
    }

    @AfterEach
    void tearDown() {
        stores.forEach(JdbcLeaseStore::close);
        tables.forEach(database::dropQuietly);
    }

    private JdbcTableName newTable() {
        JdbcTableName result = TestDatabase.uniqueTable("lease");
        tables.add(result);
        return result;
    }

    private JdbcLeaseStore newStore(final JdbcTableName name) {
        return track(database.store(name));
    }

    private JdbcLeaseStore track(final JdbcLeaseStore created) {
        stores.add(created);
        return created;
    }

    private static LeaseRecord held(final String pool, final int workerId, final String owner, final long token) {
        return new LeaseRecord(pool, workerId, owner, token, 2_000_000_000_000L, 1_999_999_999_000L, State.HELD);
    }

    @Test
    void createsTheTableOnFirstUseAndRowsLazily() {
        assertEquals(Optional.empty(), store.read("default", 7), "a number never used has no row");
        assertTrue(store.list("default").leases().isEmpty());
        long version = store.create(held("default", 7, "instance-a", 1)).orElseThrow();
        StoredLease stored = store.read("default", 7).orElseThrow();
        assertEquals(held("default", 7, "instance-a", 1), stored.record());
        assertEquals(version, stored.storeVersion());
    }

    @Test
    void secondCreateOfTheSameNumberLosesCleanly() {
        assertTrue(store.create(held("default", 3, "instance-a", 1)).isPresent());
        assertEquals(Optional.empty(), store.create(held("default", 3, "instance-b", 1)));
        assertEquals("instance-a", store.read("default", 3).orElseThrow().record().owner());
    }

    @Test
    void concurrentCreatesHaveExactlyOneWinner() throws Exception {
        List<Optional<Long>> results = race(i -> store.create(held("default", 11, "racer-" + i, 1)));
        assertEquals(1, results.stream().filter(Optional::isPresent).count(), "results: " + results);
        String winner = store.read("default", 11).orElseThrow().record().owner();
        assertTrue(winner.startsWith("racer-"), winner);
    }

    @Test
    void compareAndSetWinsOnTheCurrentVersionOnlyAndBumpsIt() {
        long v1 = store.create(held("default", 5, "instance-a", 1)).orElseThrow();
        LeaseRecord renewed = new LeaseRecord("default", 5, "instance-a", 1, 2_000_000_100_000L, 2_000_000_000_000L, State.HELD);
        long v2 = store.compareAndSet(renewed, v1).orElseThrow();
        assertEquals(v1 + 1, v2, "every write bumps the version by one");
        assertEquals(new StoredLease(renewed, v2), store.read("default", 5).orElseThrow());
        assertEquals(Optional.empty(), store.compareAndSet(held("default", 5, "instance-b", 2), v1), "a stale version loses");
        assertEquals("instance-a", store.read("default", 5).orElseThrow().record().owner());
        assertEquals(Optional.empty(), store.compareAndSet(held("default", 99, "instance-b", 2), v1), "no row, nothing to set");
        assertEquals(Optional.empty(), store.read("default", 99), "compare-and-set never creates a row");
    }

    @Test
    void concurrentCompareAndSetsOnOneVersionHaveExactlyOneWinner() throws Exception {
        long version = store.create(new LeaseRecord("default", 2, "old", 1, 1L, 1L, State.RELEASED)).orElseThrow();
        List<Optional<Long>> results = race(i -> store.compareAndSet(held("default", 2, "racer-" + i, 2), version));
        assertEquals(1, results.stream().filter(Optional::isPresent).count(), "results: " + results);
        StoredLease after = store.read("default", 2).orElseThrow();
        assertEquals(version + 1, after.storeVersion());
        assertTrue(after.record().owner().startsWith("racer-"));
    }

    @Test
    void listsOnePoolByWorkerId() {
        store.create(held("default", 9, "a", 1));
        store.create(held("default", 1, "b", 1));
        store.create(held("other", 4, "c", 1));
        PoolListing listing = store.list("default");
        assertEquals(List.of(1, 9), listing.usedWorkerIds());
        assertEquals("b", listing.leases().get(1).record().owner());
        assertTrue(listing.corrupt().isEmpty());
        assertEquals(List.of(4), store.list("other").usedWorkerIds());
    }

    @Test
    void deleteNeedsTheCurrentVersion() {
        long version = store.create(held("default", 6, "a", 1)).orElseThrow();
        assertFalse(store.delete("default", 6, version + 5));
        assertTrue(store.read("default", 6).isPresent());
        assertTrue(store.delete("default", 6, version));
        assertEquals(Optional.empty(), store.read("default", 6));
    }

    @Test
    void recreatedRowNeverMatchesAVersionOfTheDeletedOne() throws InterruptedException {
        long old = store.create(held("default", 8, "a", 1)).orElseThrow();
        long renewed = store.compareAndSet(held("default", 8, "a", 1), old).orElseThrow();
        assertTrue(store.delete("default", 8, renewed));
        Thread.sleep(2L);
        long fresh = store.create(held("default", 8, "b", 1)).orElseThrow();
        assertTrue(fresh > renewed, "versions of a recreated row start above the old ones: " + fresh + " vs " + renewed);
        assertEquals(Optional.empty(), store.compareAndSet(held("default", 8, "a", 1), old));
        assertEquals(Optional.empty(), store.compareAndSet(held("default", 8, "a", 1), renewed));
    }

    @Test
    void corruptRowsAreReportedWithLocationAndContentAndNeverAsFree() {
        store.create(held("default", 1, "fine", 1));
        // Hand edits an operator might make, each violating one rule.
        insertRaw(2, "'x'", "3", "1", "100", "100", "'BOGUS'");
        insertRaw(3, "'x'", "3", "1", "-5", "100", "'HELD'");
        insertRaw(4, "'x'", "3", "-1", "100", "100", "'RELEASED'");
        insertRaw(5, "''", "3", "1", "100", "100", "'RELEASED'");
        insertRaw(6, "'x'", "-3", "1", "100", "100", "'HELD'");
        // Out of range: a successor's floor (reserved_until + 1) would overflow, or the number would never expire.
        insertRaw(7, "'x'", "3", "1", "100", "9223372036854775807", "'RELEASED'");
        insertRaw(8, "'x'", "3", "1", "253402300800000", "100", "'HELD'");

        CorruptLeaseRecordException unknownState = assertThrows(CorruptLeaseRecordException.class, () -> store.read("default", 2));
        assertTrue(unknownState.getMessage().contains(store.locationOf("default", 2)), unknownState.getMessage());
        assertTrue(unknownState.getMessage().contains("state=BOGUS"), unknownState.getMessage());
        assertTrue(unknownState.getMessage().contains("neither HELD nor RELEASED"), unknownState.getMessage());
        assertTrue(assertThrows(CorruptLeaseRecordException.class, () -> store.read("default", 3)).getMessage().contains("expires_at -5 is negative"));
        assertTrue(assertThrows(CorruptLeaseRecordException.class, () -> store.read("default", 4)).getMessage().contains("fencing_token -1 is negative"));
        assertTrue(assertThrows(CorruptLeaseRecordException.class, () -> store.read("default", 5)).getMessage().contains("owner is empty"));
        assertTrue(assertThrows(CorruptLeaseRecordException.class, () -> store.read("default", 6)).getMessage().contains("version -3 is negative"));
        assertTrue(assertThrows(CorruptLeaseRecordException.class, () -> store.read("default", 7)).getMessage()
                .contains("reserved_until 9223372036854775807 is above"));
        assertTrue(assertThrows(CorruptLeaseRecordException.class, () -> store.read("default", 8)).getMessage().contains("expires_at 253402300800000 is above"));

        PoolListing listing = store.list("default");
        assertEquals(List.of(1), List.copyOf(listing.leases().keySet()));
        assertEquals(List.of(2, 3, 4, 5, 6, 7, 8), List.copyOf(listing.corrupt().keySet()));
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8), listing.usedWorkerIds(), "corrupt numbers count as used");
        // A corrupt row is not free to create either: the insert loses on the primary key.
        assertEquals(Optional.empty(), store.create(held("default", 2, "intruder", 1)));
    }

    @Test
    void refusesToWriteWhatItWouldReadAsCorrupt() {
        assertThrows(IllegalArgumentException.class, () -> store.create(new LeaseRecord("default", 1, "a", 1, 100, Long.MAX_VALUE, State.HELD)));
        assertThrows(IllegalArgumentException.class, () -> store.create(new LeaseRecord("default", 1, " ", 1, 100, 100, State.HELD)));
        long version = store.create(held("default", 1, "a", 1)).orElseThrow();
        assertThrows(IllegalArgumentException.class, () -> store.compareAndSet(new LeaseRecord("default", 1, "a", -1, 100, 100, State.HELD), version));
        assertEquals(held("default", 1, "a", 1), store.read("default", 1).orElseThrow().record());
    }

    @Test
    void nullColumnsOfAHandMadeTableAreCorruptNotZero() {
        JdbcTableName loose = newTable();
        // A table created by hand without the NOT NULL constraints of our DDL.
        database.execute("CREATE TABLE " + loose.value() + " (pool VARCHAR(128) NOT NULL, worker_id INT NOT NULL, owner VARCHAR(255), version BIGINT, "
                + "fencing_token BIGINT, expires_at BIGINT, reserved_until BIGINT, state VARCHAR(16), PRIMARY KEY (pool, worker_id))");
        database.execute("INSERT INTO " + loose.value() + " VALUES ('default', 1, NULL, 1, 1, 100, 100, 'HELD')");
        database.execute("INSERT INTO " + loose.value() + " VALUES ('default', 2, 'x', 1, 1, NULL, 100, 'HELD')");
        JdbcLeaseStore looseStore = track(new JdbcLeaseStore(new JdbcStoreSettings(database.url(), database.username(), database.password(), loose, false, 3_000L)));
        CorruptLeaseRecordException nullOwner = assertThrows(CorruptLeaseRecordException.class, () -> looseStore.read("default", 1));
        assertTrue(nullOwner.getMessage().contains("owner=null"), nullOwner.getMessage());
        assertTrue(assertThrows(CorruptLeaseRecordException.class, () -> looseStore.read("default", 2)).getMessage().contains("expires_at is empty"));
        assertEquals(List.of(1, 2), List.copyOf(looseStore.list("default").corrupt().keySet()));
    }

    @Test
    void theDdlRunsTwiceAndConcurrentFirstStartsAllSucceed() throws Exception {
        JdbcTableName shared = newTable();
        List<JdbcLeaseStore> starters = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            starters.add(newStore(shared));
        }
        List<Optional<Long>> results = race(i -> starters.get(i % starters.size()).create(held("default", i, "starter-" + i, 1)));
        assertTrue(results.stream().allMatch(Optional::isPresent), "results: " + results);
        database.execute(JdbcLeaseSchema.ddl(shared));
        assertEquals(RACERS, newStore(shared).list("default").leases().size());
    }

    @Test
    void aMissingTableWithCreateTableOffFailsWithTheDdl() {
        JdbcTableName missing = newTable();
        JdbcLeaseStore noCreate = track(new JdbcLeaseStore(new JdbcStoreSettings(database.url(), database.username(), database.password(), missing, false, 3_000L)));
        LeaseStoreUnavailableException error = assertThrows(LeaseStoreUnavailableException.class, () -> noCreate.read("default", 0));
        assertTrue(error.getMessage().contains("table " + missing.value() + " does not exist"), error.getMessage());
        assertTrue(error.getMessage().contains("jdbc-create-table is false"), error.getMessage());
        assertTrue(error.getMessage().contains("CREATE TABLE IF NOT EXISTS " + missing.value()), error.getMessage());
    }

    @Test
    void describesTheStoreWithoutCredentials() {
        assertEquals("jdbc " + database.url() + " table " + table.value(), store.describe());
        assertEquals("row (pool='p', worker_id=3) of table " + table.value() + " in " + database.url(), store.locationOf("p", 3));
    }

    /** Runs one call per racer, all released at once, and returns their results. */
    private static <T> List<T> race(final Function<Integer, T> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(RACERS);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < RACERS; i++) {
                int racer = i;
                futures.add(pool.submit(() -> {
                    start.await();
                    return call.apply(racer);
                }));
            }
            start.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> each : futures) {
                results.add(each.get(60, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    private void insertRaw(final int workerId, final String owner, final String version, final String token, final String expiresAt,
                           final String reservedUntil, final String state) {
        database.execute("INSERT INTO " + table.value() + " (" + LeaseRowReader.COLUMNS + ") VALUES ('default', " + workerId + ", " + owner + ", "
                + version + ", " + token + ", " + expiresAt + ", " + reservedUntil + ", " + state + ")");
    }
}
