package org.snowkey.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.generator.IdUnavailableException;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseStatus;
import org.snowkey.keygen.lease.LeaseUnavailableException;
import org.snowkey.lease.admin.LeaseAdmin;
import org.snowkey.lease.store.CorruptLeaseRecordException;
import org.snowkey.lease.store.LayoutText;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.lease.store.LeaseStoreUnavailableException;
import org.snowkey.lease.store.StoredLease;
import org.snowkey.lease.testing.AmbiguousStore;
import org.snowkey.lease.testing.InterceptingStore;
import org.snowkey.lease.testing.SettableClock;
import org.snowkey.lease.testing.Ids;
import org.snowkey.lease.testing.ManualScheduler;
import org.snowkey.lease.testing.PausableClock;
import org.snowkey.lease.testing.PausableScheduler;
import org.snowkey.lease.testing.TestScope;

/**
 * The lease protocol of docs/design.md ("Worker id leases") against a real registry, for any {@link LeaseStore}. A store's test
 * subclasses this and says how to open a client of its registry, how to write garbage into a record and how to
 * take the registry down and back up; every test here then runs against that store.
 *
 * <p>Each test works in a pool of its own. Assertions are about ids and records, never about how long
 * something took; waits only bound liveness.
 *
 * <p>Scenarios marked {@link ProtocolLogicOnly} are decided by the lease protocol's Java code alone; a store may run
 * them only under {@code -Dsnowkey.stores=all} ({@link #assumeProtocolLogicWanted}, docs/testing.md).
 */
public abstract class AbstractLeaseProtocolContractTest {

    /**
     * A scenario whose outcome is decided by the lease protocol's own code (acquisition order, renewal, expiry by the
     * instance's clock, fencing, release, the checkpoint file), reaching the store only through create, read, list
     * and compare-and-set on one record at a time, with no concurrency between stores' clients and no lost answer.
     * Those calls are the same Java code path on every database, and each database's SQL for them is checked by its
     * store contract (JdbcLeaseStore*Test). Scenarios that race clients against each other, cut the store's
     * connections (its driver's timeouts), lose answers of applied writes, or write records by hand are not marked.
     */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    protected @interface ProtocolLogicOnly {
    }

    /** Short leases keep the expiry tests quick; renewal runs every third of it. */
    protected static final long SHORT_LEASE_MILLIS = 1_500L;

    private static final AtomicInteger POOLS = new AtomicInteger();

    @TempDir
    protected Path checkpointDir;

    /** The pool of the running test. */
    protected String pool;

    private final List<AutoCloseable> cleanup = Collections.synchronizedList(new ArrayList<>());

    /** A new, independent client of the registry under test (as another process would open). */
    protected abstract LeaseStore openStore();

    /** Writes unparseable content into the record of a number, creating it if needed. */
    protected abstract void writeGarbage(String pool, int workerId, String content) throws Exception;

    /** Takes the registry down (its data survives). */
    protected abstract void stopRegistry() throws Exception;

    /** Brings the registry back after {@link #stopRegistry()}. */
    protected abstract void startRegistry() throws Exception;

    /**
     * Called before each {@link ProtocolLogicOnly} scenario: a store on which {@code mvn -B verify} does not repeat
     * them skips it here ({@link TestScope#assumeRepeatWanted}). Runs every scenario unless overridden.
     */
    protected void assumeProtocolLogicWanted(final String scenario) {
    }

    @BeforeEach
    void skipProtocolLogicRepeat(final TestInfo info) {
        if (info.getTestMethod().map(each -> each.isAnnotationPresent(ProtocolLogicOnly.class)).orElse(false)) {
            assumeProtocolLogicWanted(info.getDisplayName() + " (lease protocol logic)");
        }
    }

    @BeforeEach
    void choosePool(final TestInfo info) {
        pool = "t" + POOLS.incrementAndGet() + "-" + info.getTestMethod().map(each -> each.getName()).orElse("test");
        if (pool.length() > 60) {
            pool = pool.substring(0, 60);
        }
    }

    @AfterEach
    void closeEverything() {
        List<AutoCloseable> toClose = new ArrayList<>(cleanup);
        Collections.reverse(toClose);
        for (AutoCloseable each : toClose) {
            try {
                each.close();
            } catch (final Exception ignored) {
                // Best effort: a test may have closed it already or stopped the registry.
            }
        }
        cleanup.clear();
    }

    /** Registers something to close after the test. */
    protected <T extends AutoCloseable> T closeLater(final T closeable) {
        cleanup.add(closeable);
        return closeable;
    }

    protected LeasedWorkerLease lease(final String instanceId, final int workerIdBits, final long durationMillis, final long acquireTimeoutMillis,
                                      final LeaseRuntimeOptions options) {
        LeaseTerms settings = new LeaseTerms(pool, durationMillis, acquireTimeoutMillis, instanceId);
        LeaseRuntimeOptions withCheckpoint = options.checkpoint() != null ? options
                : options.withCheckpoint(new WorkerIdCheckpoint(checkpointDir.resolve(instanceId), pool));
        return closeLater(new LeasedWorkerLease(openStore(), settings, Ids.layout(workerIdBits), withCheckpoint));
    }

    protected LeasedWorkerLease lease(final String instanceId, final int workerIdBits, final long durationMillis, final long acquireTimeoutMillis) {
        return lease(instanceId, workerIdBits, durationMillis, acquireTimeoutMillis, LeaseRuntimeOptions.defaults());
    }

    protected static IdGenerator generator(final LeasedWorkerLease lease, final int workerIdBits, final WallClock clock) {
        return new IdGenerator(Ids.layout(workerIdBits), lease, clock, new ClockRules(10, 10_000));
    }

    @Test
    void fiftyConcurrentAcquirersGetFiftyDistinctWorkerIds() throws Exception {
        int acquirers = 50;
        List<LeasedWorkerLease> leases = new ArrayList<>();
        for (int i = 0; i < acquirers; i++) {
            leases.add(lease("acquirer-" + i, 13, 30_000, 20_000));
        }
        ExecutorService executor = Executors.newFixedThreadPool(acquirers);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> results = new ArrayList<>();
            for (LeasedWorkerLease each : leases) {
                results.add(executor.submit((Callable<Integer>) () -> {
                    start.await();
                    return each.currentGrant().workerId();
                }));
            }
            start.countDown();
            Set<Integer> workerIds = new HashSet<>();
            for (Future<Integer> each : results) {
                workerIds.add(each.get(60, TimeUnit.SECONDS));
            }
            assertEquals(acquirers, workerIds.size(), "distinct worker ids: " + workerIds);
        } finally {
            executor.shutdownNow();
        }
        try (LeaseStore store = openStore()) {
            LeaseStore.PoolListing listing = listPatiently(store);
            assertEquals(acquirers, listing.leases().size());
            Set<String> owners = new HashSet<>();
            listing.leases().values().forEach(each -> owners.add(each.record().owner()));
            assertEquals(acquirers, owners.size(), "one record per acquirer: " + owners);
        }
    }


    /**
     * The pool's listing on a fresh store, tried again while the store answers that it is unreachable: with fifty leases
     * just opened on a loaded machine, the fresh store's first connection may take longer than its call timeout. Whether
     * the records are right is the test's question, not how fast the first connection comes.
     */
    private LeaseStore.PoolListing listPatiently(final LeaseStore store) {
        for (int attempt = 1; ; attempt++) {
            try {
                return store.list(pool);
            } catch (final LeaseStoreUnavailableException ex) {
                if (attempt == 20) {
                    throw ex;
                }
            }
        }
    }
    @Test
    @ProtocolLogicOnly
    void aFullPoolFailsNamingPoolSizeAndHolders() {
        for (int i = 0; i < 4; i++) {
            lease("holder-" + i, 2, 30_000, 5_000).currentGrant();
        }
        LeasedWorkerLease fifth = lease("fifth", 2, 30_000, 300);
        LeaseUnavailableException failure = assertThrows(LeaseUnavailableException.class, fifth::currentGrant);
        String message = failure.getMessage();
        assertTrue(message.contains("'" + pool + "'"), message);
        assertTrue(message.contains("all 4 numbers"), message);
        assertTrue(message.contains("worker-id-bits = 2"), message);
        for (int i = 0; i < 4; i++) {
            assertTrue(message.contains("holder-" + i), message);
        }
        assertTrue(failure.getCause() instanceof PoolExhaustedException, String.valueOf(failure.getCause()));
    }

    @Test
    @ProtocolLogicOnly
    void renewalRaisesTheCeilingOfTheSameGrant() {
        LeasedWorkerLease lease = lease("renewer", 4, SHORT_LEASE_MILLIS, 5_000);
        LeaseGrant grant = lease.currentGrant();
        long firstCeiling = grant.ceilingMillis();
        Ids.await("a renewal", Duration.ofSeconds(20), () -> grant.ceilingMillis() > firstCeiling);
        assertSame(grant, lease.currentGrant());
        assertFalse(grant.isRevoked());
        LeaseStatus status = lease.status();
        assertTrue(status.healthy(), String.valueOf(status));
        assertEquals(grant.workerId(), status.workerId());
        assertEquals(pool, status.pool());
        assertTrue(status.renewals() >= 1, String.valueOf(status));
        try (LeaseStore store = openStore()) {
            LeaseRecord record = store.read(pool, grant.workerId()).orElseThrow().record();
            assertTrue(record.reservedUntil() >= grant.ceilingMillis(), "the ceiling never exceeds the durable reservation: " + record + " vs " + grant);
            assertTrue(record.reservedUntil() <= record.expiresAt(), record.toString());
            assertEquals(LeaseRecord.State.HELD, record.state());
        }
    }

    @Test
    @ProtocolLogicOnly
    void gracefulReleaseLetsTheNextHolderStartAtTheWallClock() {
        int bits = 1;
        LeaseRuntimeOptions sharedCheckpoint = LeaseRuntimeOptions.defaults().withCheckpoint(new WorkerIdCheckpoint(checkpointDir.resolve("host"), pool));
        LeasedWorkerLease first = lease("first", bits, 60_000, 5_000, sharedCheckpoint);
        IdGenerator firstGenerator = generator(first, bits, WallClock.system());
        long lastOfFirst = 0;
        for (int i = 0; i < 1_000; i++) {
            lastOfFirst = firstGenerator.nextId();
        }
        LeaseGrant firstGrant = first.currentGrant();
        long reservedByFirst = firstGrant.ceilingMillis();
        first.close();
        StoredLease released = readRecord(firstGrant.workerId());
        assertEquals(LeaseRecord.State.RELEASED, released.record().state());
        assertTrue(released.record().reservedUntil() < reservedByFirst, "released with the high-water mark, not the reservation: " + released);
        long issuedUpTo = Ids.layout(bits).toWallClock(Ids.layout(bits).decode(lastOfFirst).logicalTimestamp());
        assertEquals(issuedUpTo, released.record().reservedUntil(), "the exact high-water mark");

        long before = System.currentTimeMillis();
        LeasedWorkerLease second = lease("second", bits, 60_000, 5_000, sharedCheckpoint);
        LeaseGrant secondGrant = second.currentGrant();
        long after = System.currentTimeMillis();
        assertEquals(firstGrant.workerId(), secondGrant.workerId(), "the checkpoint asks for the same number first");
        assertTrue(secondGrant.floorMillis() >= before && secondGrant.floorMillis() <= after,
                "starts at the wall clock, not after the first holder's reservation: " + secondGrant + " vs reserved " + reservedByFirst);
        assertTrue(secondGrant.floorMillis() > released.record().reservedUntil());
        assertTrue(generator(second, bits, WallClock.system()).nextId() > lastOfFirst);
    }

    @Test
    @ProtocolLogicOnly
    void aCrashedHoldersNumberIsFreeOnlyAfterExpiryAndItsSuccessorIssuesAboveIt() throws Exception {
        int bits = 1;
        lease("filler", bits, 60_000, 5_000).currentGrant();
        PausableScheduler crashedScheduler = new PausableScheduler();
        closeLater(crashedScheduler::shutdownNow);
        LeasedWorkerLease crashed = lease("crashed", bits, SHORT_LEASE_MILLIS, 5_000, LeaseRuntimeOptions.defaults().withRenewalScheduler(crashedScheduler));
        IdGenerator crashedGenerator = generator(crashed, bits, WallClock.system());
        long maxOfCrashed = 0;
        for (int i = 0; i < 2_000; i++) {
            maxOfCrashed = Math.max(maxOfCrashed, crashedGenerator.nextId());
        }
        int number = crashed.currentGrant().workerId();
        // The crash: no renewal, no release, ever again.
        crashedScheduler.shutdownNow();
        LeaseRecord lastWritten = readRecord(number).record();

        LeasedWorkerLease impatient = lease("impatient", bits, 60_000, 0);
        if (System.currentTimeMillis() < lastWritten.expiresAt()) {
            LeaseUnavailableException refused = assertThrows(LeaseUnavailableException.class, impatient::currentGrant);
            assertTrue(refused.getMessage().contains("crashed"), refused.getMessage());
        }
        LeasedWorkerLease successor = lease("successor", bits, 60_000, 20_000);
        LeaseGrant successorGrant = successor.currentGrant();
        assertEquals(number, successorGrant.workerId());
        assertTrue(System.currentTimeMillis() > lastWritten.expiresAt(), "claimed only after the expiry");
        assertTrue(successorGrant.floorMillis() > lastWritten.reservedUntil());
        IdGenerator successorGenerator = generator(successor, bits, WallClock.system());
        long firstOfSuccessor = successorGenerator.nextId();
        assertTrue(firstOfSuccessor > maxOfCrashed, firstOfSuccessor + " must lie above " + maxOfCrashed);
        assertTrue(readRecord(number).record().fencingToken() > lastWritten.fencingToken(), "a takeover raises the fencing token");
    }

    @Test
    void whileTheRegistryIsDownIdsFlowUpToTheCeilingAndRenewalResumesAfterwards() throws Exception {
        int bits = 4;
        long duration = 6_000;
        LeasedWorkerLease lease = lease("outage", bits, duration, 5_000);
        IdGenerator generator = generator(lease, bits, WallClock.system());
        LeaseGrant grant = lease.currentGrant();
        generator.nextId();
        stopRegistry();
        long ceilingAtStop = grant.ceilingMillis();
        Set<Long> duringOutage = new HashSet<>();
        try {
            long until = System.currentTimeMillis() + duration / 3;
            while (System.currentTimeMillis() < until) {
                duringOutage.add(generator.nextId());
                Thread.sleep(1);
            }
        } finally {
            startRegistry();
        }
        assertTrue(duringOutage.size() > 10, "ids kept flowing during the outage: " + duringOutage.size());
        for (long each : duringOutage) {
            long timestamp = Ids.layout(bits).toWallClock(Ids.layout(bits).decode(each).logicalTimestamp());
            assertTrue(timestamp <= ceilingAtStop, "no id above the reserved ceiling");
            assertEquals(grant.workerId(), Ids.layout(bits).decode(each).workerId());
        }
        assertTrue(lease.status().healthy(), "ids still flow: " + lease.status());
        Ids.await("renewal after the outage", Duration.ofSeconds(30), () -> grant.ceilingMillis() > ceilingAtStop);
        assertFalse(grant.isRevoked(), String.valueOf(grant.revocationReason()));
        assertSame(grant, lease.currentGrant());
        assertEquals(grant.ceilingMillis(), readRecord(grant.workerId()).record().reservedUntil(), "renewed durably");
    }

    @Test
    void aRegistryOutageLongerThanTheLeaseFailsClosed() throws Exception {
        int bits = 4;
        LeasedWorkerLease lease = lease("long-outage", bits, SHORT_LEASE_MILLIS, 500);
        IdGenerator generator = generator(lease, bits, WallClock.system());
        LeaseGrant grant = lease.currentGrant();
        stopRegistry();
        try {
            Ids.await("revocation after expiry", Duration.ofSeconds(30), grant::isRevoked);
            assertTrue(grant.revocationReason().contains("expired"), grant.revocationReason());
            LeaseStatus status = lease.status();
            assertFalse(status.healthy(), String.valueOf(status));
            assertTrue(status.problem() != null && status.renewalFailures() > 0, String.valueOf(status));
            RuntimeException failure = assertThrows(RuntimeException.class, generator::nextId);
            assertTrue(failure instanceof LeaseUnavailableException || failure instanceof IdUnavailableException, failure.toString());
        } finally {
            startRegistry();
        }
        Ids.await("a new lease once the registry is back", Duration.ofSeconds(30), () -> {
            try {
                return generator.nextId() > 0;
            } catch (final RuntimeException stillDown) {
                return false;
            }
        });
        assertFalse(lease.currentGrant().isRevoked());
    }

    @Test
    @ProtocolLogicOnly
    void aPausedHolderIsFencedBelowItsSuccessorAndMovesToANewLease() throws Exception {
        int bits = 2;
        List<LeasedWorkerLease> fillers = new ArrayList<>();
        PausableClock pausedClock = new PausableClock();
        PausableScheduler pausedScheduler = new PausableScheduler();
        closeLater(pausedScheduler::shutdownNow);
        LeasedWorkerLease paused = lease("paused", bits, SHORT_LEASE_MILLIS, 10_000,
                LeaseRuntimeOptions.defaults().withClock(pausedClock).withRenewalScheduler(pausedScheduler));
        IdGenerator pausedGenerator = generator(paused, bits, pausedClock);
        pausedGenerator.nextId();
        int number = paused.currentGrant().workerId();
        for (int i = 0; i < 3; i++) {
            LeasedWorkerLease filler = lease("filler-" + i, bits, 60_000, 5_000);
            filler.currentGrant();
            fillers.add(filler);
        }
        // The pause: renewal and clock stand still (GC pause, SIGSTOP) while the lease runs out.
        pausedScheduler.pause();
        pausedClock.freeze();
        List<Long> beforePause = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            beforePause.add(pausedGenerator.nextId());
        }
        LeasedWorkerLease successor = lease("successor", bits, 60_000, 20_000);
        assertEquals(number, successor.currentGrant().workerId(), "the only number that can become free");
        IdGenerator successorGenerator = generator(successor, bits, WallClock.system());
        long minOfSuccessor = Long.MAX_VALUE;
        for (int i = 0; i < 1_000; i++) {
            minOfSuccessor = Math.min(minOfSuccessor, successorGenerator.nextId());
        }
        // Room to move to once the paused holder wakes up.
        fillers.get(0).close();

        // Wake up: the clock jumps to the present and the overdue renewal runs.
        pausedClock.resume();
        pausedScheduler.resume();
        List<Long> afterWaking = new ArrayList<>();
        long deadline = System.currentTimeMillis() + 30_000;
        while (System.currentTimeMillis() < deadline) {
            try {
                long id = pausedGenerator.nextId();
                afterWaking.add(id);
                if (Ids.layout(bits).decode(id).workerId() != number) {
                    break;
                }
            } catch (final IdUnavailableException | LeaseUnavailableException stopped) {
                // Fails closed until the new lease is in force.
                Thread.sleep(5);
            }
        }
        for (long each : beforePause) {
            assertTrue(each < minOfSuccessor, "issued before the pause, below the successor");
        }
        boolean moved = false;
        for (long each : afterWaking) {
            if (Ids.layout(bits).decode(each).workerId() == number) {
                assertTrue(each < minOfSuccessor, "an id on the lost number after waking lies below every id of the successor");
            } else {
                moved = true;
            }
        }
        assertTrue(moved, "the paused holder moved to a new lease: " + paused);
        assertNotEquals(number, paused.currentGrant().workerId());
        assertTrue(successor.heldGrant().isPresent(), "the successor keeps its lease");
    }

    @Test
    @ProtocolLogicOnly
    void aTakenOverLeaseIsRevokedAtOnceAndReplaced() {
        int bits = 3;
        LeasedWorkerLease holder = lease("holder", bits, 3_000, 5_000);
        LeaseGrant grant = holder.currentGrant();
        try (LeaseStore intruder = openStore()) {
            StoredLease stored = intruder.read(pool, grant.workerId()).orElseThrow();
            LeaseRecord stolen = new LeaseRecord(pool, grant.workerId(), "intruder", stored.record().fencingToken() + 1, stored.record().expiresAt(),
                    stored.record().reservedUntil(), LeaseRecord.State.HELD);
            assertTrue(intruder.compareAndSet(stolen, stored.storeVersion()).isPresent());
        }
        Ids.await("revocation after the takeover", Duration.ofSeconds(20), grant::isRevoked);
        assertTrue(grant.revocationReason().contains("intruder"), grant.revocationReason());
        LeaseGrant next = holder.currentGrant();
        assertNotEquals(grant.workerId(), next.workerId());
    }

    @Test
    void aCorruptRecordIsNamedAndNeverReused() throws Exception {
        int bits = 1;
        writeGarbage(pool, 0, "{not json at all");
        try (LeaseStore store = openStore()) {
            CorruptLeaseRecordException corrupt = assertThrows(CorruptLeaseRecordException.class, () -> store.read(pool, 0));
            assertTrue(corrupt.getMessage().contains(store.locationOf(pool, 0)), corrupt.getMessage());
            assertTrue(corrupt.getMessage().contains("{not json at all"), corrupt.getMessage());
            assertTrue(store.list(pool).corrupt().containsKey(0));
        }
        LeasedWorkerLease first = lease("first", bits, 60_000, 5_000);
        assertEquals(1, first.currentGrant().workerId(), "the corrupt number is skipped");
        LeasedWorkerLease second = lease("second", bits, 60_000, 300);
        LeaseUnavailableException failure = assertThrows(LeaseUnavailableException.class, second::currentGrant);
        try (LeaseStore store = openStore()) {
            assertTrue(failure.getMessage().contains("corrupt at " + store.locationOf(pool, 0)), failure.getMessage());
        }
    }

    @Test
    @ProtocolLogicOnly
    void theNumberHeldLastIsPreferredAndTheCheckpointIsOptional() {
        int bits = 6;
        WorkerIdCheckpoint checkpoint = new WorkerIdCheckpoint(checkpointDir.resolve("restart"), pool);
        LeasedWorkerLease before = lease("restart", bits, 60_000, 5_000, LeaseRuntimeOptions.defaults().withCheckpoint(checkpoint));
        int number = before.currentGrant().workerId();
        before.close();
        assertEquals(number, checkpoint.read().orElseThrow());
        LeasedWorkerLease after = lease("restarted-with-another-id", bits, 60_000, 5_000, LeaseRuntimeOptions.defaults().withCheckpoint(checkpoint));
        assertEquals(number, after.currentGrant().workerId());

        // An unwritable checkpoint (its directory is a file) is a warning, never a failure.
        WorkerIdCheckpoint broken = new WorkerIdCheckpoint(checkpoint.file(), pool);
        LeasedWorkerLease unaffected = lease("unaffected", bits, 60_000, 5_000, LeaseRuntimeOptions.defaults().withCheckpoint(broken));
        assertNotEquals(number, unaffected.currentGrant().workerId());
    }

    @Test
    void theLargestPoolAcquiresAndReleasesLikeAnyOther() {
        int bits = org.snowkey.keygen.layout.IdLayout.MAX_WORKER_ID_BITS;
        LeasedWorkerLease lease = lease("large-pool", bits, 60_000, 5_000);
        int number = lease.currentGrant().workerId();
        assertTrue(number >= 0 && number < 1 << bits, String.valueOf(number));
        lease.close();
        assertEquals(LeaseRecord.State.RELEASED, readRecord(number).record().state());
    }

    @Test
    @ProtocolLogicOnly
    void closeReleasesOnceAndLaterRequestsFail() {
        LeasedWorkerLease lease = lease("closing", 4, 60_000, 5_000);
        int number = lease.currentGrant().workerId();
        lease.close();
        lease.close();
        assertEquals(LeaseRecord.State.RELEASED, readRecord(number).record().state());
        LeaseUnavailableException closed = assertThrows(LeaseUnavailableException.class, lease::currentGrant);
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        assertFalse(lease.status().healthy());
        assertEquals("closed", lease.status().problem());
    }

    // One pool, one layout. Every record carries its writer's layout; another layout is refused.
    @Test
    void anInstanceOfAnotherLayoutFailsAtStartNamingBothLayoutsAndThePool() {
        IdLayout poolLayout = Ids.layout(3);
        LeasedWorkerLease first = lease("layout-first", 3, 60_000, 5_000);
        int held = first.currentGrant().workerId();
        assertEquals(poolLayout, readRecord(held).record().layout());
        List<IdLayout> others = List.of(Ids.layout(4), IdLayout.of(3, 0, poolLayout.epochMillis()), IdLayout.of(3, 1, poolLayout.epochMillis() + 1));
        for (IdLayout other : others) {
            LeasedWorkerLease second = closeLater(new LeasedWorkerLease(openStore(), new LeaseTerms(pool, 60_000, 0, "layout-other"), other,
                    LeaseRuntimeOptions.defaults().withCheckpoint(new WorkerIdCheckpoint(checkpointDir.resolve("other"), pool))));
            LeaseUnavailableException refused = assertThrows(LeaseUnavailableException.class, second::currentGrant, other.toString());
            assertTrue(refused.getMessage().contains(LayoutText.format(poolLayout)) && refused.getMessage().contains(LayoutText.format(other))
                    && refused.getMessage().contains("'" + pool + "'"), refused.getMessage());
            second.close();
        }
        try (LeaseStore store = openStore()) {
            store.list(pool).leases().values().forEach(each -> assertEquals(poolLayout, each.record().layout(), each.toString()));
        }
    }

    @Test
    void recordsOfAnOlderSnowKeyWithoutALayoutAreAdoptedAndThenCarryIt() {
        try (LeaseStore store = openStore()) {
            store.create(new LeaseRecord(pool, 0, "older-snowkey", 3, 1_000, 1_000, LeaseRecord.State.RELEASED)).orElseThrow();
            store.create(new LeaseRecord(pool, 1, "older-snowkey", 1, 2_000, 2_000, LeaseRecord.State.RELEASED)).orElseThrow();
        }
        assertNull(readRecord(0).record().layout());
        LeasedWorkerLease lease = lease("current-snowkey", 1, 60_000, 5_000);
        int number = lease.currentGrant().workerId();
        assertEquals(Ids.layout(1), readRecord(number).record().layout());
        assertNull(readRecord(1 - number).record().layout());
    }

    // A renewal applied with its answer lost must not stop the graceful release.
    @Test
    void aReleaseAfterARenewalWhoseAnswerWasLostStillReleases() {
        AmbiguousStore store = new AmbiguousStore(openStore());
        ManualScheduler renewals = new ManualScheduler();
        try {
            LeasedWorkerLease lease = closeLater(new LeasedWorkerLease(store, new LeaseTerms(pool, 60_000, 5_000, "ambiguous-renewal"), Ids.layout(3),
                    LeaseRuntimeOptions.defaults().withRenewalScheduler(renewals).withCheckpoint(new WorkerIdCheckpoint(checkpointDir, pool))));
            int number = lease.currentGrant().workerId();
            long versionBefore = readRecord(number).storeVersion();
            store.loseTheAnswerOfTheNextCompareAndSet();
            renewals.runNext();
            assertTrue(store.fired());
            assertNotEquals(versionBefore, readRecord(number).storeVersion(), "the renewal was applied");
            lease.close();
            StoredLease after = readRecord(number);
            assertEquals(LeaseRecord.State.RELEASED, after.record().state(), after.toString());
        } finally {
            renewals.shutdownNow();
        }
    }

    // Two renewals lost in a row (the first applied, the second not), then a release. The release must recognise
    // the applied renewal as its own write (the exact high-water mark, not the renewed reservation) and go through.
    @Test
    void twoLostRenewalsThenAReleaseReleasesAtTheHighWaterMark() {
        AmbiguousStore store = new AmbiguousStore(openStore());
        ManualScheduler renewals = new ManualScheduler();
        try {
            LeasedWorkerLease lease = closeLater(new LeasedWorkerLease(store, new LeaseTerms(pool, 60_000, 5_000, "two-lost-renewals"), Ids.layout(3),
                    LeaseRuntimeOptions.defaults().withRenewalScheduler(renewals).withCheckpoint(new WorkerIdCheckpoint(checkpointDir, pool))));
            int number = lease.currentGrant().workerId();
            store.loseTheAnswerOfTheNextCompareAndSet();
            renewals.runNext();
            assertTrue(store.fired());
            long renewedTo = readRecord(number).record().reservedUntil();
            store.loseTheAnswerOfTheNextCompareAndSet();
            renewals.runNext();
            assertTrue(store.fired());
            assertEquals(renewedTo, readRecord(number).record().reservedUntil(), "the second renewal was not applied");
            lease.close();
            StoredLease after = readRecord(number);
            assertEquals(LeaseRecord.State.RELEASED, after.record().state(), after.toString());
            assertTrue(after.record().reservedUntil() < renewedTo, "own renewals taken for someone else's: " + after + ", renewed to " + renewedTo);
        } finally {
            renewals.shutdownNow();
        }
    }

    // A leased lease opened for one layout (written into the pool's records, which refuse other layouts) is refused by a
    // generator of another epoch, whose ids would be read against floors in another time frame than the pool's holders.
    @Test
    void aGeneratorRefusesALeasedLeaseOfAnotherEpoch() {
        LeasedWorkerLease lease = lease("other-epoch", 3, 60_000, 5_000);
        IdLayout otherEpoch = IdLayout.of(3, 1, IdLayout.defaults().epochMillis() + 3_600_000L);
        assertThrows(IllegalArgumentException.class, () -> new IdGenerator(otherEpoch, lease, WallClock.system(), new ClockRules(10, 0)).close(),
                "a generator of another epoch than the lease's pool layout " + Ids.layout(3) + " was built on it");
    }

    // A claim applied with its answer lost is adopted on retry, never leaked.
    @Test
    void aClaimWhoseAnswerWasLostIsAdoptedNotLeaked() {
        AmbiguousStore store = new AmbiguousStore(openStore());
        store.loseTheAnswerOfTheNextCreate();
        LeasedWorkerLease first = closeLater(new LeasedWorkerLease(store, new LeaseTerms(pool, 60_000, 10_000, "ambiguous-claim"), Ids.layout(1),
                LeaseRuntimeOptions.defaults().withCheckpoint(new WorkerIdCheckpoint(checkpointDir.resolve("first"), pool))));
        int held = first.currentGrant().workerId();
        assertTrue(store.fired());
        // A pool of two: the other number must still be free for the second instance.
        LeasedWorkerLease second = lease("second", 1, 60_000, 0);
        assertNotEquals(held, second.currentGrant().workerId());
    }

    // A renewal whose write lands after an insert saw the lease expire (the registry was slow) must not leave the number
    // held by this instance for a whole lease while it moves to another one: in a pool of two the next instance would
    // find no free number.
    @Test
    void aRenewalLandingAfterAnInsertSawTheLeaseExpireLeavesNoNumberHeldInVain() throws Exception {
        InterceptingStore store = new InterceptingStore(openStore());
        ManualScheduler renewals = new ManualScheduler();
        SettableClock clock = new SettableClock(System.currentTimeMillis());
        ExecutorService inserts = Executors.newSingleThreadExecutor();
        try {
            LeasedWorkerLease lease = closeLater(new LeasedWorkerLease(store, new LeaseTerms(pool, 60_000, 10_000, "slow-renewal"), Ids.layout(1),
                    LeaseRuntimeOptions.defaults().withClock(clock).withRenewalScheduler(renewals).withCheckpoint(new WorkerIdCheckpoint(checkpointDir, pool))));
            LeaseGrant first = lease.currentGrant();
            long expiresAt = lease.status().expiresAtMillis();
            clock.set(expiresAt - 1);
            AtomicReference<Future<LeaseGrant>> insert = new AtomicReference<>();
            store.onNextCompareAndSet(() -> {
                // While the renewal's write is on its way, the lease expires and an insert sees it.
                clock.set(expiresAt + 1);
                insert.set(inserts.submit(lease::currentGrant));
                Ids.await("the insert revokes the expired grant", Duration.ofSeconds(30), first::isRevoked);
            }, InterceptingStore.Outcome.APPLIED);
            renewals.runNext();
            assertTrue(store.fired());
            LeaseGrant next = insert.get().get(30, TimeUnit.SECONDS);
            // A pool of two numbers and one instance in it: the other number must be free, whichever this one holds now.
            LeasedWorkerLease other = lease("other", 1, 60_000, 0, LeaseRuntimeOptions.defaults().withClock(clock));
            assertNotEquals(next.workerId(), other.currentGrant().workerId());
        } finally {
            renewals.shutdownNow();
            inserts.shutdownNow();
        }
    }

    // Two processes with one instance id (a replacement started while the first one hung in a claim whose request was
    // lost) claim a number from the same released record. Its high-water mark lies ahead of both clocks, so both claims
    // start at it; with tokens that grow by one they would be identical records to the millisecond: the first would
    // adopt the replacement's claim as its own, and both would issue from the same floor on the same number.
    @Test
    void aLostClaimIsNeverAdoptedFromAnotherProcessWithTheSameInstanceId() {
        long aheadOfTheClock = System.currentTimeMillis() + 5_000;
        try (LeaseStore setup = openStore()) {
            for (int number = 0; number < 2; number++) {
                setup.create(new LeaseRecord(pool, number, "predecessor", 7, aheadOfTheClock, aheadOfTheClock, LeaseRecord.State.RELEASED, Ids.layout(1)));
            }
        }
        InterceptingStore store = new InterceptingStore(openStore());
        AtomicReference<LeaseGrant> replacement = new AtomicReference<>();
        store.onNextCompareAndSet(() -> replacement.set(lease("twin", 1, 60_000, 0).currentGrant()), InterceptingStore.Outcome.LOST);
        LeasedWorkerLease first = closeLater(new LeasedWorkerLease(store, new LeaseTerms(pool, 60_000, 10_000, "twin"), Ids.layout(1),
                LeaseRuntimeOptions.defaults().withCheckpoint(new WorkerIdCheckpoint(checkpointDir.resolve("first"), pool))));
        LeaseGrant mine = first.currentGrant();
        assertTrue(store.fired());
        LeaseGrant theirs = replacement.get();
        assertTrue(mine.workerId() != theirs.workerId() || mine.floorMillis() > theirs.ceilingMillis() || theirs.floorMillis() > mine.ceilingMillis(),
                "both issue on worker id " + mine.workerId() + ": " + mine + " and " + theirs);
    }

    /**
     * The same race as above with the one chance the random token step left: both processes draw the same step (one
     * seeded source), so their claims agree on owner, token, floor and layout. Only the incarnation tells them apart.
     */
    @Test
    void aLostClaimIsNeverAdoptedFromAnotherIncarnationEvenWithTheSameTokenStep() {
        long aheadOfTheClock = System.currentTimeMillis() + 5_000;
        try (LeaseStore setup = openStore()) {
            for (int number = 0; number < 2; number++) {
                setup.create(new LeaseRecord(pool, number, "predecessor", 7, aheadOfTheClock, aheadOfTheClock, LeaseRecord.State.RELEASED, Ids.layout(1)));
            }
        }
        InterceptingStore store = new InterceptingStore(openStore());
        AtomicReference<LeaseGrant> replacement = new AtomicReference<>();
        store.onNextCompareAndSet(() -> replacement.set(lease("twin", 1, 60_000, 0, LeaseRuntimeOptions.defaults().withClaimRandom(new Random(42)))
                .currentGrant()), InterceptingStore.Outcome.LOST);
        LeasedWorkerLease first = closeLater(new LeasedWorkerLease(store, new LeaseTerms(pool, 60_000, 10_000, "twin"), Ids.layout(1),
                LeaseRuntimeOptions.defaults().withCheckpoint(new WorkerIdCheckpoint(checkpointDir.resolve("first"), pool)).withClaimRandom(new Random(42))));
        LeaseGrant mine = first.currentGrant();
        assertTrue(store.fired());
        LeaseGrant theirs = replacement.get();
        assertTrue(mine.workerId() != theirs.workerId() || mine.floorMillis() > theirs.ceilingMillis() || theirs.floorMillis() > mine.ceilingMillis(),
                "both issue on worker id " + mine.workerId() + ": " + mine + " and " + theirs);
    }

    /**
     * An operator releases the number of a holder that still runs, between its claim and its first renewal, and a
     * successor claims it at once. The release keeps the reservation, so every id the holder issues until its next
     * renewal lies below the successor's first; at that renewal the holder loses the number and moves on.
     */
    @Test
    void anOperatorReleaseOfALiveHoldersNumberKeepsItBelowTheSuccessorUntilItsNextRenewalFencesIt() {
        int bits = 1;
        IdLayout layout = Ids.layout(bits);
        SettableClock clock = new SettableClock(System.currentTimeMillis());
        ManualScheduler holderRenewals = new ManualScheduler();
        ManualScheduler successorRenewals = new ManualScheduler();
        closeLater(holderRenewals::shutdownNow);
        closeLater(successorRenewals::shutdownNow);
        LeasedWorkerLease holder = lease("holder", bits, 60_000, 5_000, LeaseRuntimeOptions.defaults().withClock(clock).withRenewalScheduler(holderRenewals));
        IdGenerator holderIds = generator(holder, bits, clock);
        Set<Long> issued = new HashSet<>();
        List<Long> holderIdsOnTheNumber = new ArrayList<>();
        LeaseGrant held = holder.currentGrant();
        int number = held.workerId();
        issueOneMillisecondApart(holderIds, clock, 5, issued, holderIdsOnTheNumber, number);

        try (LeaseStore operatorsStore = openStore()) {
            assertTrue(new LeaseAdmin(operatorsStore, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).release(pool, number));
        }
        new WorkerIdCheckpoint(checkpointDir.resolve("successor"), pool).write(number);
        LeasedWorkerLease successor = lease("successor", bits, 60_000, 5_000,
                LeaseRuntimeOptions.defaults().withClock(clock).withRenewalScheduler(successorRenewals));
        LeaseGrant next = successor.currentGrant();
        assertEquals(number, next.workerId(), "the successor claimed the released number");
        assertTrue(next.floorMillis() > held.ceilingMillis(), "the successor starts above the holder's reservation: " + next + " after " + held);

        // Between the release and its next renewal the holder still issues on the number, below its reservation.
        issueOneMillisecondApart(holderIds, clock, 5, issued, holderIdsOnTheNumber, number);
        holderRenewals.runNext();
        assertTrue(held.isRevoked(), "the holder lost the number at its next renewal: " + held);
        issueOneMillisecondApart(holderIds, clock, 5, issued, holderIdsOnTheNumber, number);
        assertNotEquals(number, holder.currentGrant().workerId(), "the holder moved to the other number");

        clock.set(next.floorMillis());
        IdGenerator successorIds = generator(successor, bits, clock);
        for (int i = 0; i < 5; i++) {
            clock.advance(1);
            long id = successorIds.nextId();
            assertTrue(issued.add(id), "the successor repeated an id of the holder: " + layout.decode(id));
            for (long each : holderIdsOnTheNumber) {
                assertTrue(each < id, "the holder issued " + layout.decode(each) + " at or above the successor's " + layout.decode(id));
            }
        }
    }

    /**
     * The wall clock steps back while the lease is held (an NTP step, a VM restored from a snapshot), before and across
     * a renewal: the generator keeps issuing increasing ids or refuses, never one it issued before, and the renewal
     * never lowers the reservation it wrote.
     */
    @Test
    void aClockSteppedBackWhileTheLeaseIsHeldNeverRepeatsAnId() {
        int bits = 2;
        SettableClock clock = new SettableClock(System.currentTimeMillis());
        ManualScheduler renewals = new ManualScheduler();
        closeLater(renewals::shutdownNow);
        LeasedWorkerLease lease = lease("stepped", bits, 60_000, 5_000, LeaseRuntimeOptions.defaults().withClock(clock).withRenewalScheduler(renewals));
        IdGenerator generator = generator(lease, bits, clock);
        LeaseGrant grant = lease.currentGrant();
        long[] last = {-1};
        int[] refused = {0};
        Runnable issueSome = () -> {
            for (int i = 0; i < 50; i++) {
                clock.advance(1);
                try {
                    long id = generator.nextId();
                    assertTrue(id > last[0], () -> "id " + generator.decode(id) + " is not above " + generator.decode(last[0]) + " at clock " + clock.millis());
                    last[0] = id;
                } catch (final IdUnavailableException ex) {
                    refused[0]++;
                }
            }
        };
        issueSome.run();
        long reservedBefore = readRecord(grant.workerId()).record().reservedUntil();
        clock.advance(-5_000);
        issueSome.run();
        renewals.runNext();
        assertFalse(grant.isRevoked(), "a clock stepped back within the lease does not lose it: " + grant.revocationReason());
        assertTrue(readRecord(grant.workerId()).record().reservedUntil() >= reservedBefore, "the renewal lowered the reservation");
        issueSome.run();
        clock.advance(-20_000);
        issueSome.run();
        clock.advance(30_000);
        issueSome.run();
        assertTrue(last[0] >= 0, "ids were issued (refused " + refused[0] + " times)");
    }

    private static void issueOneMillisecondApart(final IdGenerator generator, final SettableClock clock, final int count, final Set<Long> issued,
                                                 final List<Long> onNumber, final int number) {
        for (int i = 0; i < count; i++) {
            clock.advance(1);
            long id = generator.nextId();
            assertTrue(issued.add(id), "id issued twice: " + generator.decode(id));
            if (generator.decode(id).workerId() == number) {
                onNumber.add(id);
            }
        }
    }

    protected StoredLease readRecord(final int workerId) {
        try (LeaseStore store = openStore()) {
            return store.read(pool, workerId).orElseThrow(() -> new AssertionError("no record of worker id " + workerId + " in pool " + pool));
        }
    }
}
