package org.snowkey.fault;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.snowkey.keygen.layout.DecodedId;
import org.snowkey.keygen.layout.IdLayout;

/**
 * The checks at the end of a run, over every {@code ids-<incarnation>.bin} and {@code events-<incarnation>.txt}:
 * <ol>
 *   <li>no id appears twice, across all files;</li>
 *   <li>ids are strictly increasing within each incarnation;</li>
 *   <li>holdings never overlap: the ids of one worker id, cut into runs (a <em>segment</em> is a maximal run of one
 *       incarnation's consecutive ids on one worker id), sorted by first id, each segment ends below the next one's
 *       first id; and every id of a predecessor lies below the lease floor its successor was granted (the floor
 *       comes from the successor's {@code GRANT} line). A fenced holder (SIGSTOPped zombie, partitioned, clock
 *       off) that issued at or above its successor's first id would fail here even without a duplicate. A generator
 *       on several holdings (extra worker ids leased while hot) interleaves worker ids id by id: every id is a segment
 *       of its own then, and only the lease's own holdings have {@code GRANT} lines (the extras' successors count as
 *       hand-overs without a logged grant).</li>
 * </ol>
 */
public final class IdChecker {

    private static final int SAMPLES = 10;

    /** One maximal run of consecutive ids of one incarnation on one worker id. */
    record Segment(String incarnation, int workerId, long firstId, long lastId, long count, long floor) {
    }

    /** The outcome. Lists hold at most a few samples; counts are exact. */
    public record Result(long ids, int incarnations, long duplicates, List<Long> duplicateSamples, long orderViolations, List<String> orderSamples,
                         long overlaps, List<String> overlapSamples, long floorViolations, List<String> floorSamples, long handovers,
                         long handoversWithoutGrant, Map<Integer, Long> idsPerWorkerId, long failedCalls) {

        public boolean passed() {
            return duplicates == 0 && orderViolations == 0 && overlaps == 0 && floorViolations == 0;
        }
    }

    private final IdLayout layout;

    public IdChecker(final IdLayout layout) {
        this.layout = layout;
    }

    public Result check(final Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(each -> each.getFileName().toString().startsWith("ids-") && each.toString().endsWith(".bin")).sorted().toList();
        }
        long total = 0;
        for (Path each : files) {
            total += Files.size(each) / 8;
        }
        long[] all = new long[Math.toIntExact(total)];
        int filled = 0;
        long orderViolations = 0;
        List<String> orderSamples = new ArrayList<>();
        List<Segment> segments = new ArrayList<>();
        Map<Integer, Long> perWorker = new TreeMap<>();
        Map<String, Map<Integer, long[]>> floors = new HashMap<>();
        long failedCalls = 0;
        for (Path file : files) {
            String incarnation = file.getFileName().toString().replaceFirst("^ids-", "").replaceFirst("\\.bin$", "");
            long[] ids = read(file);
            System.arraycopy(ids, 0, all, filled, ids.length);
            filled += ids.length;
            Path events = dir.resolve("events-" + incarnation + ".txt");
            long failedHere = 0;
            List<long[]> grants = new ArrayList<>();
            if (Files.exists(events)) {
                for (String line : Files.readAllLines(events)) {
                    String[] parts = line.split(" ");
                    if (parts[0].equals("GRANT") && parts.length >= 5) {
                        int worker = Integer.parseInt(parts[2]);
                        long floor = Long.parseLong(parts[3]);
                        floors.computeIfAbsent(incarnation, key -> new HashMap<>()).merge(worker, new long[] {floor}, IdChecker::append);
                        grants.add(new long[] {worker, floor, Long.parseLong(parts[5])});
                    } else if (parts[0].equals("END") && parts.length >= 4) {
                        failedHere = Math.max(failedHere, Long.parseLong(parts[3]));
                    } else if (parts[0].equals("FAIL") && parts.length >= 3 && parts[2].matches("\\d+")) {
                        failedHere = Math.max(failedHere, Long.parseLong(parts[2]));
                    }
                }
            }
            failedCalls += failedHere;
            // A logged holding begins at the first id on its worker id at or after the index it was logged with: a
            // generator on several holdings interleaves worker ids, so the id at that index may carry another one.
            Map<Integer, Long> pending = new HashMap<>();
            int nextGrant = 0;
            long segmentFloor = Long.MIN_VALUE;
            int segmentWorker = -1;
            long segmentFirst = 0;
            long segmentCount = 0;
            for (int i = 0; i < ids.length; i++) {
                long id = ids[i];
                if (i > 0 && id <= ids[i - 1]) {
                    orderViolations++;
                    if (orderSamples.size() < SAMPLES) {
                        orderSamples.add(incarnation + " #" + i + ": " + layout.decode(ids[i - 1]) + " then " + layout.decode(id));
                    }
                }
                int worker = layout.decode(id).workerId();
                perWorker.merge(worker, 1L, Long::sum);
                while (nextGrant < grants.size() && grants.get(nextGrant)[2] <= i) {
                    pending.put((int) grants.get(nextGrant)[0], grants.get(nextGrant)[1]);
                    nextGrant++;
                }
                Long grantedFloor = pending.remove(worker);
                // A new segment at every change of worker id and at every new holding the process logged.
                if (worker != segmentWorker || grantedFloor != null) {
                    if (segmentCount > 0) {
                        segments.add(new Segment(incarnation, segmentWorker, segmentFirst, ids[i - 1], segmentCount, segmentFloor));
                    }
                    segmentFloor = grantedFloor == null ? Long.MIN_VALUE : grantedFloor;
                    segmentWorker = worker;
                    segmentFirst = id;
                    segmentCount = 0;
                }
                segmentCount++;
            }
            if (segmentCount > 0) {
                segments.add(new Segment(incarnation, segmentWorker, segmentFirst, ids[ids.length - 1], segmentCount, segmentFloor));
            }
        }
        // 1. duplicates across everything.
        Arrays.sort(all, 0, filled);
        List<Long> duplicateSamples = new ArrayList<>();
        long duplicates = duplicates(all, filled, duplicateSamples);
        all = null;
        // 3. holdings per worker id never overlap; a predecessor stays below its successor's floor.
        long overlaps = 0;
        long floorViolations = 0;
        long handovers = 0;
        long withoutGrant = 0;
        List<String> overlapSamples = new ArrayList<>();
        List<String> floorSamples = new ArrayList<>();
        Map<Integer, List<Segment>> byWorker = new TreeMap<>();
        for (Segment each : segments) {
            byWorker.computeIfAbsent(each.workerId(), key -> new ArrayList<>()).add(each);
        }
        for (List<Segment> list : byWorker.values()) {
            list.sort(Comparator.comparingLong(Segment::firstId));
            Segment highest = null;
            for (Segment next : list) {
                if (highest != null) {
                    if (next.firstId() <= highest.lastId()) {
                        overlaps++;
                        if (overlapSamples.size() < SAMPLES) {
                            overlapSamples.add("worker id " + next.workerId() + ": " + highest.incarnation() + " issued up to " + layout.decode(highest.lastId())
                                    + " but " + next.incarnation() + " began at " + layout.decode(next.firstId()));
                        }
                    }
                    boolean handover = !highest.incarnation().equals(next.incarnation());
                    if (handover) {
                        handovers++;
                    }
                    long floor = next.floor() != Long.MIN_VALUE ? next.floor() : floorOf(floors, next);
                    // Segments of one incarnation on one holding, cut apart only by ids it issued on its other holdings
                    // meanwhile, are one holding: its floor lies below all of them.
                    boolean sameHolding = !handover && next.floor() == Long.MIN_VALUE
                            && floor == (highest.floor() != Long.MIN_VALUE ? highest.floor() : floorOf(floors, highest));
                    if (!sameHolding) {
                        if (floor == Long.MIN_VALUE) {
                            withoutGrant++;
                        } else if (layout.toWallClock(layout.decode(highest.lastId()).logicalTimestamp()) >= floor) {
                            floorViolations++;
                            if (floorSamples.size() < SAMPLES) {
                                floorSamples.add("worker id " + next.workerId() + ": " + highest.incarnation() + " issued " + layout.decode(highest.lastId())
                                        + ", at or above the floor " + java.time.Instant.ofEpochMilli(floor) + " granted to its successor " + next.incarnation());
                            }
                        }
                    }
                }
                if (highest == null || next.lastId() > highest.lastId()) {
                    highest = next;
                }
            }
        }
        return new Result(filled, files.size(), duplicates, duplicateSamples, orderViolations, orderSamples, overlaps, overlapSamples, floorViolations,
                floorSamples, handovers, withoutGrant, perWorker, failedCalls);
    }

    /**
     * Ids that repeat an earlier one in {@code sorted} (sorted ascending up to {@code length}); the first few go to
     * {@code samples}. Shared by the lease scenarios and the segment scenario ({@link SegmentKeyChecker}).
     */
    static long duplicates(final long[] sorted, final int length, final List<Long> samples) {
        long duplicates = 0;
        for (int i = 1; i < length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                duplicates++;
                if (samples.size() < SAMPLES) {
                    samples.add(sorted[i]);
                }
            }
        }
        return duplicates;
    }

    /** The floor of the successor's holding that its first id was issued on: the highest granted floor not above it. */
    private long floorOf(final Map<String, Map<Integer, long[]>> floors, final Segment successor) {
        long[] granted = floors.getOrDefault(successor.incarnation(), Map.of()).get(successor.workerId());
        if (granted == null) {
            return Long.MIN_VALUE;
        }
        DecodedId first = layout.decode(successor.firstId());
        long firstMillis = layout.toWallClock(first.logicalTimestamp());
        long best = Long.MIN_VALUE;
        for (long each : granted) {
            if (each <= firstMillis && each > best) {
                best = each;
            }
        }
        return best;
    }

    private static long[] append(final long[] a, final long[] b) {
        long[] result = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, result, a.length, b.length);
        return result;
    }

    static long[] read(final Path file) throws IOException {
        long[] ids = new long[(int) (Files.size(file) / 8)];
        try (InputStream raw = Files.newInputStream(file); DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 1 << 16))) {
            for (int i = 0; i < ids.length; i++) {
                ids[i] = in.readLong();
            }
        } catch (final EOFException truncated) {
            // A SIGKILL may cut the last write short: the whole ids before it count.
        }
        return ids;
    }
}
