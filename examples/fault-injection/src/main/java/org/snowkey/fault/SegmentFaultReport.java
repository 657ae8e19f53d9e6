package org.snowkey.fault;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.snowkey.fault.FaultExperiment.Fault;
import org.snowkey.fault.FaultExperiment.FaultKind;
import org.snowkey.lease.admin.RangeAdmin;
import org.snowkey.segment.store.RangeReconciliation;

/**
 * The figures of one segment scenario, as text.
 *
 * @param reconciliation the range log of the key reconciled (gaps allowed, overlaps not)
 * @param cliStatus      the exit status of {@code LeaseCli reconcile --key K} against the same store
 */
public record SegmentFaultReport(SegmentFaultExperiment.Settings settings, String key, long runMillis, List<Fault> faults, SegmentKeyChecker.Result result,
                                 RangeReconciliation reconciliation, int cliStatus, String cliOutput, List<Integer> faultsWithoutRecovery) {

    public boolean passed() {
        return result.passed() && reconciliation.consistent() && cliStatus == 0 && faultsWithoutRecovery.isEmpty();
    }

    public String text() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "== segment scenario %s (seed %d) ==%n", settings.registry(), settings.seed()));
        out.append(String.format(Locale.ROOT, "run: %s total, faults injected for %s, %d generators, key '%s', props %s%n", FaultExperiment.seconds(runMillis),
                FaultExperiment.seconds(settings.faultMillis()), settings.generators(), key, SegmentFaultExperiment.SEQUENCE_PROPS));
        out.append(String.format(Locale.ROOT, "keys issued: %,d by %d incarnations; calls that failed (allocator away, buffers empty): %,d%s%n", result.keys(),
                result.incarnations(), result.failedCalls(), result.failSamples().isEmpty() ? "" : ", first: " + result.failSamples().get(0)));
        out.append(String.format(Locale.ROOT, "duplicates: %d%s%n", result.duplicates(), result.duplicates() == 0 ? "" : " e.g. " + result.duplicateSamples()));
        out.append(String.format(Locale.ROOT, "keys not strictly increasing within an incarnation or outside 1..2^53-1: %d%s%n", result.orderViolations(),
                result.orderViolations() == 0 ? "" : " e.g. " + result.orderSamples()));
        out.append(String.format(Locale.ROOT, "keys in no range the log holds for their process: %d%s%n", result.outsideOwnRange(),
                result.outsideOwnRange() == 0 ? "" : " e.g. " + result.outsideSamples()));
        out.append(String.format(Locale.ROOT, "range log: %,d ranges, %,d numbers, %d gaps, %d overlaps%s; numbers handed out but never issued: %,d%n",
                reconciliation.ranges().size(), result.loggedNumbers(), reconciliation.gaps().size(), reconciliation.overlaps().size(),
                reconciliation.consistent() ? "" : " " + reconciliation.overlaps(), result.unissued()));
        out.append(String.format(Locale.ROOT, "LeaseCli reconcile --key %s: exit %d%s%n", key, cliStatus,
                cliStatus == 0 ? "" : cliStatus == RangeAdmin.OVERLAP ? " (OVERLAP)" : " (failed)\n" + cliOutput));
        out.append(String.format(Locale.ROOT, "%-40s %5s %18s %22s%n", "fault", "count", "longest stall", "longest recovery"));
        Map<FaultKind, long[]> byKind = new EnumMap<>(FaultKind.class);
        for (Fault each : faults) {
            long[] figures = byKind.computeIfAbsent(each.kind(), k -> new long[3]);
            figures[0]++;
            figures[1] = Math.max(figures[1], each.stallMillis());
            figures[2] = Math.max(figures[2], each.recoveryMillis());
        }
        for (Map.Entry<FaultKind, long[]> each : byKind.entrySet()) {
            out.append(String.format(Locale.ROOT, "%-40s %5d %18s %22s%n", each.getKey(), each.getValue()[0], FaultExperiment.seconds(each.getValue()[1]),
                    FaultExperiment.seconds(each.getValue()[2])));
        }
        if (!faultsWithoutRecovery.isEmpty()) {
            out.append("NOT ISSUING AGAIN after faults ").append(faultsWithoutRecovery.stream().map(faults::get).toList()).append('\n');
        }
        out.append(passed() ? "RESULT: PASS\n" : "RESULT: FAIL\n");
        return out.toString();
    }
}
