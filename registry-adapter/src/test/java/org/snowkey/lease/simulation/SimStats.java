package org.snowkey.lease.simulation;

import java.util.Map;
import java.util.TreeMap;

/** What simulated schedules did, summed for the report. */
final class SimStats {

    long schedules;

    long steps;

    long ids;

    long storeCalls;

    long invariantChecks;

    long crashes;

    long pauses;

    long clockJumps;

    long restarts;

    long releases;

    long layoutRefusals;

    long interleavings;

    long replacements;

    long holdingChanges;

    long poolsLeftWithTwoLayouts;

    long simulatedMillis;

    final Map<String, Long> faults = new TreeMap<>();

    synchronized void add(final SimStats other) {
        schedules += other.schedules;
        steps += other.steps;
        ids += other.ids;
        storeCalls += other.storeCalls;
        invariantChecks += other.invariantChecks;
        crashes += other.crashes;
        pauses += other.pauses;
        clockJumps += other.clockJumps;
        restarts += other.restarts;
        releases += other.releases;
        layoutRefusals += other.layoutRefusals;
        interleavings += other.interleavings;
        replacements += other.replacements;
        holdingChanges += other.holdingChanges;
        poolsLeftWithTwoLayouts += other.poolsLeftWithTwoLayouts;
        simulatedMillis += other.simulatedMillis;
        other.faults.forEach((kind, count) -> faults.merge(kind, count, Long::sum));
    }

    long totalFaults() {
        return faults.values().stream().mapToLong(Long::longValue).sum() + crashes + pauses + clockJumps;
    }

    @Override
    public synchronized String toString() {
        return String.format("%,d schedules, %,d steps, %,d ids issued, %,d invariant checks, %,d store calls, %,d faults "
                + "(store %s; %,d crashes, %,d pauses, %,d clock jumps), %,d restarts, %,d graceful releases, %,d layout refusals, %,d actions interleaved with store calls, %,d replacements started beside a hung process with its instance id, %,d changes of extra holdings, %,d pools left with two layouts, %,d simulated seconds",
                schedules, steps, ids, invariantChecks, storeCalls, totalFaults(), faults, crashes, pauses, clockJumps, restarts, releases, layoutRefusals,
                interleavings, replacements, holdingChanges, poolsLeftWithTwoLayouts, simulatedMillis / 1000);
    }
}
