package org.snowkey.fault;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.snowkey.fault.FaultExperiment.Fault;
import org.snowkey.fault.FaultExperiment.FaultKind;

/** The figures of one scenario, as text. */
public record FaultReport(FaultExperiment.Settings settings, long runMillis, List<Fault> faults, IdChecker.Result result, long sessionExpiryLogLines,
                          List<Integer> faultsWithoutRecovery) {

    public boolean passed() {
        return result.passed() && faultsWithoutRecovery.isEmpty();
    }

    public String text() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "== scenario %s (seed %d) ==%n", settings.registry(), settings.seed()));
        out.append(String.format(Locale.ROOT, "run: %s total, faults injected for %s, %d generators + %d successors, lease %d ms, pool of 4 worker ids%s%n",
                FaultExperiment.seconds(runMillis), FaultExperiment.seconds(settings.faultMillis()), settings.generators(),
                faults.stream().filter(each -> each.kind() == FaultKind.ZOMBIE_PAUSE || each.kind() == FaultKind.ZOMBIE_PAUSE_DURING_OUTAGE).count(), settings.leaseMillis(),
                settings.libfaketime() == null ? "; clock faults SKIPPED (libfaketime not found)" : "; generator g0 under libfaketime"));
        out.append(String.format(Locale.ROOT, "ids issued: %,d by %d incarnations; per worker id %s; calls that failed closed: %,d%n", result.ids(),
                result.incarnations(), result.idsPerWorkerId(), result.failedCalls()));
        out.append(String.format(Locale.ROOT, "duplicates: %d%s%n", result.duplicates(), result.duplicates() == 0 ? "" : " e.g. " + result.duplicateSamples()));
        out.append(String.format(Locale.ROOT, "ids not strictly increasing within an incarnation: %d%s%n", result.orderViolations(),
                result.orderViolations() == 0 ? "" : " e.g. " + result.orderSamples()));
        out.append(String.format(Locale.ROOT, "worker-id hand-overs between incarnations: %d (%d without a logged grant); grants overlapping: %d%s; "
                + "predecessor ids at or above the successor's floor: %d%s%n", result.handovers(), result.handoversWithoutGrant(), result.overlaps(),
                result.overlaps() == 0 ? "" : " e.g. " + result.overlapSamples(), result.floorViolations(),
                result.floorViolations() == 0 ? "" : " e.g. " + result.floorSamples()));
        if (settings.registry() == FaultExperiment.Registry.ZOOKEEPER) {
            out.append(String.format(Locale.ROOT, "ZooKeeper session expiry lines in generator logs: %d%n", sessionExpiryLogLines));
        }
        out.append(String.format(Locale.ROOT, "%-40s %5s %18s %22s%n", "fault", "count", "longest stall", "longest recovery"));
        Map<FaultKind, long[]> byKind = new EnumMap<>(FaultKind.class);
        for (Fault each : faults) {
            long[] figures = byKind.computeIfAbsent(each.kind(), key -> new long[3]);
            figures[0]++;
            figures[1] = Math.max(figures[1], each.stallMillis());
            figures[2] = Math.max(figures[2], each.recoveryMillis());
        }
        for (Map.Entry<FaultKind, long[]> each : byKind.entrySet()) {
            out.append(String.format(Locale.ROOT, "%-40s %5d %18s %22s%n", each.getKey(), each.getValue()[0], FaultExperiment.seconds(each.getValue()[1]),
                    FaultExperiment.seconds(each.getValue()[2])));
        }
        out.append("(stall: longest time an affected generator issued nothing around the fault, sampled every 50 ms; a restarted generator counts from its "
                + "predecessor's last id; "
                + "recovery: from the end of the fault to the first id of every affected generator)\n");
        if (!faultsWithoutRecovery.isEmpty()) {
            out.append("NOT ISSUING AGAIN after faults ").append(faultsWithoutRecovery.stream().map(faults::get).toList()).append('\n');
        }
        out.append(passed() ? "RESULT: PASS\n" : "RESULT: FAIL\n");
        return out.toString();
    }
}
