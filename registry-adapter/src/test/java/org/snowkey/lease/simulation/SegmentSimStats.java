package org.snowkey.lease.simulation;

import java.util.Map;
import java.util.TreeMap;

/** What simulated segment schedules did, summed for the report. */
final class SegmentSimStats {

    long schedules;

    long steps;

    long keys;

    long batches;

    long ranges;

    long storeCalls;

    long checks;

    long crashes;

    long restarts;

    long outages;

    long interleavings;

    long simulatedMillis;

    final Map<String, Long> faults = new TreeMap<>();

    void fault(final String kind) {
        faults.merge(kind, 1L, Long::sum);
    }

    synchronized void add(final SegmentSimStats other) {
        schedules += other.schedules;
        steps += other.steps;
        keys += other.keys;
        batches += other.batches;
        ranges += other.ranges;
        storeCalls += other.storeCalls;
        checks += other.checks;
        crashes += other.crashes;
        restarts += other.restarts;
        outages += other.outages;
        interleavings += other.interleavings;
        simulatedMillis += other.simulatedMillis;
        other.faults.forEach((kind, count) -> faults.merge(kind, count, Long::sum));
    }

    @Override
    public synchronized String toString() {
        return String.format("%,d schedules, %,d steps, %,d keys issued (%,d batches), %,d invariant checks, %,d store calls, %,d ranges handed out, "
                + "store faults %s, %,d outages, %,d crashes, %,d restarts, %,d actions interleaved with store calls, %,d simulated seconds",
                schedules, steps, keys, batches, checks, storeCalls, ranges, faults, outages, crashes, restarts, interleavings, simulatedMillis / 1000);
    }
}
