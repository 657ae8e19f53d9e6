package org.snowkey.lease.store.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.lease.LeaseRuntimeOptions;
import org.snowkey.lease.LeasedWorkerLease;
import org.snowkey.lease.WorkerIdCheckpoint;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.testing.Ids;
import org.snowkey.lease.testing.ManualScheduler;
import org.snowkey.lease.testing.SettableClock;
import org.snowkey.store.zookeeper.ZooKeeperStoreSettings;

/**
 * {@code repair-acl} while a holder runs on a record someone opened. The repair raises the record's reservation to
 * one lease duration from now, because the record may have been forged while it was open: a genuine holder displaced
 * by the forgery may still issue up to what it reserved. The running holder finds its own record (owner, token and
 * incarnation unchanged) at its next renewal and keeps its number; when it closes, its release must keep the raised
 * reservation, not lower it to its own high-water mark, or the successor would start where the displaced holder may
 * still issue. A holder that closes before its next renewal finds the repaired record on its release, and keeps the
 * raised reservation too.
 */
class ZooKeeperAclRepairRunningHolderTest {

    private static final String DIGEST = "snowkey:Zk-Repair-4242";

    private static final long LEASE_MILLIS = 60_000L;

    private static final int BITS = 3;

    @TempDir
    Path checkpoints;

    @ParameterizedTest(name = "renewed between the repair and the close: {0}")
    @ValueSource(booleans = {true, false})
    void aRunningHolderKeepsItsNumberThroughARepairAndItsSuccessorStartsAboveTheRaisedReservation(final boolean renewedAfterTheRepair) throws Exception {
        try (TestingServer server = new TestingServer(true)) {
            ZooKeeperStoreSettings settings = new ZooKeeperStoreSettings(server.getConnectString(), "repair", DIGEST, 5_000);
            SettableClock clock = new SettableClock(System.currentTimeMillis());
            ManualScheduler renewals = new ManualScheduler();
            try (ZooKeeperLeaseStore operator = new ZooKeeperLeaseStore(settings)) {
                LeasedWorkerLease holder = lease(settings, "holder", clock, renewals);
                IdGenerator holderIds = new IdGenerator(Ids.layout(BITS), holder, clock, new ClockRules(10, 10_000));
                LeaseGrant grant = holder.currentGrant();
                int number = grant.workerId();
                Set<Long> issued = new HashSet<>();
                long holderHighest = issue(holderIds, clock, issued, 5);

                // The digest user opens the record by mistake; the operator repairs the pool while the holder runs.
                operator.client().setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(operator.path("p", number));
                clock.advance(1_000);
                long repairedAt = clock.millis();
                assertTrue(operator.repairAcls("p", repairedAt, LEASE_MILLIS, quiet()) > 0, "the open record was repaired");
                long raised = operator.read("p", number).orElseThrow().record().reservedUntil();
                assertTrue(raised >= repairedAt + LEASE_MILLIS, "the repair raised the reservation: " + raised);

                holderHighest = Math.max(holderHighest, issue(holderIds, clock, issued, 5));
                if (renewedAfterTheRepair) {
                    renewals.runNext();
                    assertFalse(grant.isRevoked(), "the holder found its own record at its next renewal and kept its number: " + grant.revocationReason());
                    assertTrue(operator.read("p", number).orElseThrow().record().reservedUntil() >= raised, "a renewal never lowers a reservation");
                }
                holderHighest = Math.max(holderHighest, issue(holderIds, clock, issued, 5));
                holderIds.close();

                LeaseRecord released = operator.read("p", number).orElseThrow().record();
                assertEquals(LeaseRecord.State.RELEASED, released.state(), released.toString());
                assertTrue(released.reservedUntil() >= raised, "the release lowered the reservation the repair raised: " + released + ", raised to " + raised);

                new WorkerIdCheckpoint(checkpoints.resolve("successor"), "p").write(number);
                LeasedWorkerLease successor = lease(settings, "successor", clock, renewals);
                try (IdGenerator successorIds = new IdGenerator(Ids.layout(BITS), successor, clock, new ClockRules(10, 10_000))) {
                    LeaseGrant next = successor.currentGrant();
                    assertEquals(number, next.workerId(), "the successor took the holder's number");
                    assertTrue(next.floorMillis() > raised, "the successor starts at " + next.floorMillis() + ", not above the raised reservation " + raised);
                    assertTrue(next.floorMillis() > holderHighest, "the successor starts above everything the holder issued");
                    clock.set(next.floorMillis());
                    long first = successorIds.nextId();
                    assertTrue(issued.add(first), "the successor repeated an id of the holder: " + first);
                    assertTrue(successorIds.decode(first).timestamp().toEpochMilli() > raised, successorIds.decode(first).toString());
                }
            } finally {
                renewals.shutdownNow();
            }
        }
    }

    private LeasedWorkerLease lease(final ZooKeeperStoreSettings settings, final String instanceId, final SettableClock clock, final ManualScheduler renewals) {
        return new LeasedWorkerLease(new ZooKeeperLeaseStore(settings), new LeaseTerms("p", LEASE_MILLIS, 5_000, instanceId), Ids.layout(BITS),
                LeaseRuntimeOptions.defaults().withClock(clock).withRenewalScheduler(renewals)
                        .withCheckpoint(new WorkerIdCheckpoint(checkpoints.resolve(instanceId), "p")));
    }

    /** Issues {@code count} ids one millisecond apart; returns the highest wall-clock millisecond they carry. */
    private static long issue(final IdGenerator generator, final SettableClock clock, final Set<Long> issued, final int count) {
        long highest = Long.MIN_VALUE;
        for (int i = 0; i < count; i++) {
            clock.advance(1);
            long id = generator.nextId();
            assertTrue(issued.add(id), "id issued twice: " + id);
            highest = Math.max(highest, generator.decode(id).timestamp().toEpochMilli());
        }
        return highest;
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }
}
