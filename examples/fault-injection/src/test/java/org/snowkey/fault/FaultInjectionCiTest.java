package org.snowkey.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.snowkey.fault.FaultExperiment.Fault;
import org.snowkey.fault.FaultExperiment.FaultKind;

/**
 * The CI profile of the experiment ({@link FaultInjection}): the lease scenarios on ZooKeeper, PostgreSQL and etcd,
 * half a minute or so of faults each, the segment scenarios, 12 s of faults each, and the holdings scenario (a generator
 * on several worker ids SIGKILLed and taken over). Asserts behaviour only: no duplicate, order within each
 * incarnation, no overlapping grants (leases) or ranges (segments), every kind of fault was injected, and every
 * generator issued again after every fault before the run ended.
 */
class FaultInjectionCiTest {

    @Test
    void noFaultProducesADuplicateAndServiceComesBack() throws Exception {
        FaultInjection.Outcome outcome = FaultInjection.run();
        // -Dsnowkey.fault.scenarios runs a part: each kind of scenario asked for must have run.
        if (outcome.scenarios().stream().anyMatch(List.of("zookeeper", "jdbc", "etcd")::contains)) {
            assertFalse(outcome.reports().isEmpty(), "no scenario ran: " + outcome.skipped());
        }
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            // As the other database tests: under CI a missing PostgreSQL fails instead of skipping.
            assertTrue(outcome.skipped().stream().noneMatch(each -> each.contains("JDBC scenario SKIPPED")), "CI=true and " + outcome.skipped());
            // .ci/run installs etcd-server: under CI a missing etcd fails too.
            assertTrue(outcome.skipped().stream().noneMatch(each -> each.contains("etcd scenario SKIPPED")), "CI=true and " + outcome.skipped());
        }
        if (outcome.scenarios().stream().anyMatch(each -> each.startsWith("segment-"))) {
            assertFalse(outcome.segmentReports().isEmpty(), "no segment scenario ran: " + outcome.skipped());
        }
        if (outcome.scenarios().stream().anyMatch(each -> each.startsWith("holdings-"))) {
            assertFalse(outcome.holdingsReports().isEmpty(), "no holdings scenario ran: " + outcome.skipped());
        }
        assertFalse(outcome.reports().isEmpty() && outcome.segmentReports().isEmpty() && outcome.holdingsReports().isEmpty(),
                "no scenario ran: " + outcome.scenarios() + " " + outcome.skipped());
        for (HoldingsReport report : outcome.holdingsReports()) {
            IdChecker.Result result = report.result();
            String context = "\n" + report.text() + "files in " + report.settings().dir();
            assertTrue(report.problems().isEmpty(), report.problems() + context);
            // Grown before the kill: the dead process issued on several worker ids, and its successor on some of them.
            assertTrue(report.holdingsAtKill() >= 2, "several holdings at the kill" + context);
            assertTrue(report.incarnations().get(0).workerIds().size() >= 2, "the killed process issued on several worker ids" + context);
            assertFalse(report.takenOver().isEmpty(), "the successor issued on the killed process's worker ids" + context);
            assertTrue(result.ids() > 10_000, "ids were issued" + context);
            assertEquals(0, result.duplicates(), "duplicates " + result.duplicateSamples() + context);
            assertEquals(0, result.orderViolations(), "ids not increasing " + result.orderSamples() + context);
            assertEquals(0, result.overlaps(), "overlapping holdings " + result.overlapSamples() + context);
            assertEquals(0, result.floorViolations(), "killed holder at or above its successor's floor " + result.floorSamples() + context);
            assertTrue(result.handovers() >= report.takenOver().size(), "worker ids changed hands" + context);
            // The successor's own lease waited for one of the dead process's numbers: that hand-over's floor was logged and checked.
            assertTrue(result.handovers() > result.handoversWithoutGrant(), "a hand-over with a logged grant" + context);
        }
        for (SegmentFaultReport report : outcome.segmentReports()) {
            SegmentKeyChecker.Result result = report.result();
            String context = "\n" + report.text() + "files in " + report.settings().dir();
            assertTrue(result.keys() > 20_000, "keys were issued" + context);
            assertTrue(report.reconciliation().ranges().size() > 200, "small steps: hundreds of allocations" + context);
            assertEquals(0, result.duplicates(), "duplicates " + result.duplicateSamples() + context);
            assertEquals(0, result.orderViolations(), "keys not increasing " + result.orderSamples() + context);
            assertEquals(0, result.outsideOwnRange(), "keys outside their process's ranges " + result.outsideSamples() + context);
            // The log has gaps only (none at all in practice: each allocation logs its range in the same step), never an overlap,
            // and the operations command agrees.
            assertTrue(report.reconciliation().consistent(), "overlapping ranges " + report.reconciliation().overlaps() + context);
            assertEquals(0, report.cliStatus(), "LeaseCli reconcile" + context + report.cliOutput());
            assertTrue(result.unissued() > 0, "killed generators left unused numbers (gaps)" + context);
            Set<FaultKind> injected = FaultExperiment.countByKind(report.faults()).keySet();
            assertTrue(injected.containsAll(SegmentFaultExperiment.kinds(report.settings().registry())), "every kind of fault was injected: " + injected + context);
            // Outages outlast the buffers: calls fail, naming the sequence key, and then recover (below).
            assertTrue(result.failedCalls() > 0 && result.failSamples().stream().anyMatch(each -> each.contains("segment sequence '" + report.key() + "'")),
                    "calls failed during outages, naming the key: " + result.failSamples() + context);
            for (Fault each : report.faults()) {
                assertTrue(each.recoveredAt() > 0, "generators issued again after " + each + context);
                assertTrue(each.recoveredAt() - each.end() < 60_000, "generators issued again within a minute after " + each + context);
            }
        }
        for (FaultReport report : outcome.reports()) {
            IdChecker.Result result = report.result();
            String context = "\n" + report.text() + "files in " + report.settings().dir();
            assertTrue(result.ids() > 100_000, "ids were issued" + context);
            assertEquals(0, result.duplicates(), "duplicates " + result.duplicateSamples() + context);
            assertEquals(0, result.orderViolations(), "ids not increasing " + result.orderSamples() + context);
            assertEquals(0, result.overlaps(), "overlapping grants " + result.overlapSamples() + context);
            assertEquals(0, result.floorViolations(), "fenced holder at or above its successor's floor " + result.floorSamples() + context);
            assertTrue(result.handovers() > 0, "worker ids changed hands" + context);
            Set<FaultKind> injected = FaultExperiment.countByKind(report.faults()).keySet();
            FaultExperiment.Registry registry = report.settings().registry();
            Set<FaultKind> expected = new HashSet<>(switch (registry) {
                case ZOOKEEPER -> Set.of(FaultKind.GENERATOR_SIGKILL, FaultKind.ZOMBIE_PAUSE, FaultKind.SESSION_EXPIRY, FaultKind.ZK_SERVER_RESTART, FaultKind.QUORUM_LOSS);
                case ETCD -> Set.of(FaultKind.GENERATOR_SIGKILL, FaultKind.ZOMBIE_PAUSE, FaultKind.ETCD_SERVER_RESTART);
                case JDBC -> Set.of(FaultKind.GENERATOR_SIGKILL, FaultKind.ZOMBIE_PAUSE, FaultKind.DB_PARTITION);
            });
            // Combined faults: a pause past the lease during a store outage, a clock jump during a hand-over (and on ZooKeeper a
            // server restart during a session expiry).
            expected.add(FaultKind.ZOMBIE_PAUSE_DURING_OUTAGE);
            expected.add(FaultKind.CLOCK_JUMP_DURING_HANDOVER);
            if (registry == FaultExperiment.Registry.ZOOKEEPER) {
                expected.add(FaultKind.ZK_SERVER_RESTART_DURING_SESSION_EXPIRY);
            }
            assertEquals(Set.copyOf(FaultExperiment.combinedKinds(registry)), Set.copyOf(expected.stream().filter(each -> each.name().contains("_DURING_")).toList()),
                    "the test expects every combined fault the scenario schedules");
            assertTrue(injected.containsAll(expected), "every kind of fault was injected: " + injected + context);
            if (report.settings().libfaketime() != null) {
                assertTrue(injected.containsAll(List.of(FaultKind.CLOCK_JUMP_BACK, FaultKind.CLOCK_JUMP_FORWARD)), "clock faults were injected" + context);
            }
            // The paused holder of a combined outage fault woke as a zombie: its number had a successor while it was stopped.
            for (Fault each : report.faults()) {
                assertFalse(each.kind() == FaultKind.ZOMBIE_PAUSE_DURING_OUTAGE && each.detail().contains(FaultExperiment.NOT_TAKEN_OVER),
                        "the paused holder's number was taken over before SIGCONT: " + each + context);
            }
            // Liveness, generously: every affected generator issued again before the run ended, within a minute.
            for (Fault each : report.faults()) {
                assertTrue(each.recoveredAt() > 0, "generators issued again after " + each + context);
                assertTrue(each.recoveredAt() - each.end() < 60_000, "generators issued again within a minute after " + each + context);
            }
        }
    }
}
