package org.snowkey.fault;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/** The figures of the holdings scenario ({@link HoldingsExperiment}), as text. */
public record HoldingsReport(HoldingsExperiment.Settings settings, long runMillis, int holdingsAtKill, Set<Integer> killedWorkerIds, Set<Integer> takenOver,
                             long takeOverMillis, List<HoldingsExperiment.Incarnation> incarnations, IdChecker.Result result, List<String> problems) {

    public boolean passed() {
        return result.passed() && problems.isEmpty() && holdingsAtKill >= 2 && !takenOver.isEmpty();
    }

    public String text() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "== scenario HOLDINGS on %s ==%n", settings.registry()));
        out.append(String.format(Locale.ROOT, "run: %s total, lease %d ms, pool of 4 worker ids, cap 8 ids per ms per worker id, calls back to back; a quiet companion c0 on the free number%n",
                FaultExperiment.seconds(runMillis), settings.leaseMillis()));
        out.append(String.format(Locale.ROOT, "SIGKILL of h0-i1 on %d holdings (it issued on worker ids %s); successor h0-i2 issued on %s of them "
                + "(on 2 holdings with one of them %s after the kill)%n", holdingsAtKill, killedWorkerIds, takenOver, FaultExperiment.seconds(takeOverMillis)));
        for (HoldingsExperiment.Incarnation each : incarnations) {
            out.append(String.format(Locale.ROOT, "%s: %,d ids on worker ids %s, at most %d holdings at once%n", each.name(), each.ids(), each.workerIds(),
                    each.mostHoldings()));
        }
        out.append(String.format(Locale.ROOT, "ids issued: %,d; per worker id %s; calls that failed closed: %,d%n", result.ids(), result.idsPerWorkerId(),
                result.failedCalls()));
        out.append(String.format(Locale.ROOT, "duplicates: %d%s%n", result.duplicates(), result.duplicates() == 0 ? "" : " e.g. " + result.duplicateSamples()));
        out.append(String.format(Locale.ROOT, "ids not strictly increasing within an incarnation: %d%s%n", result.orderViolations(),
                result.orderViolations() == 0 ? "" : " e.g. " + result.orderSamples()));
        out.append(String.format(Locale.ROOT, "worker-id hand-overs between incarnations: %d (%d without a logged grant: extras log none); grants overlapping: %d%s; "
                + "predecessor ids at or above the successor's floor: %d%s%n", result.handovers(), result.handoversWithoutGrant(), result.overlaps(),
                result.overlaps() == 0 ? "" : " e.g. " + result.overlapSamples(), result.floorViolations(),
                result.floorViolations() == 0 ? "" : " e.g. " + result.floorSamples()));
        for (String each : problems) {
            out.append("PROBLEM: ").append(each).append('\n');
        }
        out.append(passed() ? "RESULT: PASS\n" : "RESULT: FAIL\n");
        return out.toString();
    }
}
