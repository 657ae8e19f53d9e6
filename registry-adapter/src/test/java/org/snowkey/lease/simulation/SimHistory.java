package org.snowkey.lease.simulation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.lease.store.LeaseRecord;

/**
 * Everything issued in one schedule, and the safety invariants checked against it and the store:
 * <ol>
 *   <li>no id of a stream is issued twice (across all instances and layouts);</li>
 *   <li>no grant issues a timestamp above the {@code reservedUntil} it made durable in the store;</li>
 *   <li>on each number, every id of a grant lies above every id of the grants before it (lower fencing
 *       tokens), so a successor's first id is above everything its predecessor issued;</li>
 *   <li>no number is held by a record its live writer does not know it holds (a leaked claim), and a clean
 *       graceful release leaves the number released;</li>
 *   <li>no two live grants on one number cover overlapping time ranges: of two processes (a replacement with the same
 *       instance id included: a claim of one must never be adopted by the other), or of one process's lease and the
 *       sibling leases of its extra holdings;</li>
 *   <li>the ids of each stream of one generator (one incarnation) strictly increase, across lease changes and every
 *       change of its holdings.</li>
 * </ol>
 */
final class SimHistory {

    private static final Pattern FENCING_TOKEN = Pattern.compile("fencing token (\\d+)");

    private final SimStore store;

    private final SimStats stats;

    private final Map<String, Map<Long, String>> idsByStream = new HashMap<>();

    /** The last id of each stream of each generator: incarnation name and stream. */
    private final Map<String, Long> lastIdByGeneratorStream = new HashMap<>();

    /** Per number, per fencing token: the lowest and highest wall-clock ms issued. */
    private final Map<Integer, TreeMap<Long, long[]>> rangesByNumber = new HashMap<>();

    SimHistory(final SimStore store, final SimStats stats) {
        this.store = store;
        this.stats = stats;
    }

    /** Records one id and checks invariants 1 to 3 for it. */
    void issued(final SimInstance issuer, final String stream, final long id, final LeaseGrant grant) {
        stats.ids++;
        stats.invariantChecks += 3;
        String who = issuer + " on " + grant.holder();
        String earlier = idsByStream.computeIfAbsent(stream, key -> new HashMap<>()).putIfAbsent(id, who);
        if (earlier != null) {
            throw new SimulationFailure("id " + id + " of stream '" + stream + "' issued twice: by " + earlier + " and by " + who);
        }
        Long previous = lastIdByGeneratorStream.put(issuer.name() + " " + stream, id);
        if (previous != null && id <= previous) {
            throw new SimulationFailure("stream '" + stream + "' of " + who + " went back: id " + id + " after " + previous);
        }
        int workerId = issuer.layout().decode(id).workerId();
        if (workerId != grant.workerId()) {
            throw new SimulationFailure("id " + id + " decodes to worker id " + workerId + " but was issued on " + who);
        }
        long timestamp = issuer.layout().decode(id).timestamp().toEpochMilli();
        long token = fencingToken(grant);
        long durable = store.durableReservation(workerId, token);
        if (timestamp > durable) {
            throw new SimulationFailure("id " + id + " at " + timestamp + " issued by " + who + " above the reservation its grant made durable: "
                    + (durable == Long.MIN_VALUE ? "none" : Long.toString(durable)));
        }
        TreeMap<Long, long[]> ranges = rangesByNumber.computeIfAbsent(workerId, key -> new TreeMap<>());
        long[] range = ranges.computeIfAbsent(token, key -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
        range[0] = Math.min(range[0], timestamp);
        range[1] = Math.max(range[1], timestamp);
        Map.Entry<Long, long[]> before = ranges.lowerEntry(token);
        if (before != null && before.getValue()[1] >= timestamp) {
            throw new SimulationFailure("id " + id + " at " + timestamp + " issued by " + who + " is not above what the predecessor with fencing token "
                    + before.getKey() + " issued on worker id " + workerId + " (up to " + before.getValue()[1] + ")");
        }
        Map.Entry<Long, long[]> after = ranges.higherEntry(token);
        if (after != null && after.getValue()[0] <= timestamp) {
            throw new SimulationFailure("id " + id + " at " + timestamp + " issued by " + who + " is not below what the successor with fencing token "
                    + after.getKey() + " already issued on worker id " + workerId + " (from " + after.getValue()[0] + ")");
        }
    }

    /** Invariant 4 for one running instance that holds a number: every unexpired record it wrote is one it knows of. */
    void checkNoLeakedClaim(final SimInstance instance) {
        if (!instance.isRunning() || instance.heldGrant().isEmpty()) {
            return;
        }
        stats.invariantChecks++;
        store.entries().forEach((workerId, entry) -> {
            LeaseRecord record = entry.record();
            if (entry.writer().instance() == instance && entry.writer().incarnation() == instance.incarnation() && record.state() == LeaseRecord.State.HELD
                    && record.expiresAt() >= instance.highestClockReading() && !instance.known().contains(workerId)) {
                throw new SimulationFailure(instance + " holds worker id " + instance.heldGrant().get().workerId() + " and also, without knowing it, "
                        + "worker id " + workerId + " (" + record + "): a claim whose answer was lost leaked a number");
            }
        });
    }

    /**
     * Invariant 5: the grants in force on one number, across live processes and the leases of each (its own and its
     * extra holdings'), cover disjoint milliseconds.
     */
    void checkNoSharedNumber(final List<SimInstance> instances) {
        Map<Integer, List<Held>> holders = new HashMap<>();
        for (SimInstance each : instances) {
            for (LeaseGrant mine : each.heldGrants()) {
                List<Held> others = holders.computeIfAbsent(mine.workerId(), key -> new ArrayList<>());
                for (Held other : others) {
                    stats.invariantChecks++;
                    LeaseGrant theirs = other.grant();
                    if (mine.floorMillis() <= theirs.ceilingMillis() && theirs.floorMillis() <= mine.ceilingMillis()) {
                        throw new SimulationFailure(each + " and " + other.instance() + " both hold worker id " + mine.workerId()
                                + " for overlapping milliseconds: " + mine + " and " + theirs);
                    }
                }
                others.add(new Held(each, mine));
            }
        }
    }

    /** A grant in force and the process holding it. */
    private record Held(SimInstance instance, LeaseGrant grant) {
    }

    /** Invariant 4, release half: after a graceful release whose store calls all succeeded the number is free. */
    void checkReleased(final SimInstance instance, final int workerId) {
        stats.invariantChecks++;
        SimStore.Entry entry = store.entries().get(workerId);
        if (entry != null && entry.writer().instance() == instance && entry.writer().incarnation() == instance.incarnation()
                && entry.record().state() == LeaseRecord.State.HELD) {
            throw new SimulationFailure(instance + " closed cleanly but worker id " + workerId + " stays HELD, reserved until "
                    + entry.record().reservedUntil() + ": " + entry.record());
        }
    }

    private static long fencingToken(final LeaseGrant grant) {
        Matcher matcher = FENCING_TOKEN.matcher(grant.holder());
        if (!matcher.find()) {
            throw new SimulationFailure("no fencing token in the holder description '" + grant.holder() + "'");
        }
        return Long.parseLong(matcher.group(1));
    }
}
