package org.snowkey.fault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.segment.store.RangeLogEntry;

/**
 * The checks of the segment scenario at the end of a run, over every {@code ids-<incarnation>.bin} and
 * {@code events-<incarnation>.txt} and the store's range log of the key:
 * <ol>
 *   <li>no key appears twice, across all files ({@link IdChecker#duplicates});</li>
 *   <li>every key lies in 1..2^53 - 1 and keys strictly increase within each incarnation;</li>
 *   <li>every key lies in a range the log holds for the very process that issued it (the log's owner is
 *       {@code pid@host}, the pid from the incarnation's {@code START} line, and of an entry timed after that START and
 *       before any later START with the same pid, pids being reused): a key from a range the log gave someone
 *       else, or never gave, fails here even without a duplicate.</li>
 * </ol>
 * It also counts the numbers the log handed out that nobody issued (unused tails of killed processes, buffers at
 * shutdown, allocations whose answer was lost): gaps, which cost numbers, never uniqueness.
 */
public final class SegmentKeyChecker {

    private static final int SAMPLES = 10;

    /** The outcome. Lists hold at most a few samples; counts are exact. */
    public record Result(long keys, int incarnations, long duplicates, List<Long> duplicateSamples, long orderViolations, List<String> orderSamples,
                  long outsideOwnRange, List<String> outsideSamples, long loggedNumbers, long failedCalls, List<String> failSamples) {

        /** Not without keys: a run whose generators issued nothing (or whose files were not found) proves nothing. */
        public boolean passed() {
            return keys > 0 && duplicates == 0 && orderViolations == 0 && outsideOwnRange == 0;
        }

        /** Numbers the log handed out that no caller issued. */
        public long unissued() {
            return loggedNumbers - keys;
        }
    }

    private SegmentKeyChecker() {
    }

    static Result check(final Path dir, final List<RangeLogEntry> log) throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(each -> each.getFileName().toString().startsWith("ids-") && each.toString().endsWith(".bin")).sorted().toList();
        }
        // Ranges go to an INCARNATION, not to a pid: after a SIGKILL the OS may give the next generator the same pid, and
        // matching by pid alone let a key of the new incarnation from the killed one's unused tail pass as its own. A
        // log entry belongs to the incarnation of its pid that started last at or before the entry (both times are the
        // generator's own clock: its START line, then its allocator's entry).
        Map<String, List<String[]>> startsByPid = new HashMap<>();
        for (Path file : files) {
            String incarnation = file.getFileName().toString().replaceFirst("^ids-", "").replaceFirst("\\.bin$", "");
            Path events = dir.resolve("events-" + incarnation + ".txt");
            if (Files.exists(events)) {
                for (String line : Files.readAllLines(events)) {
                    String[] parts = line.split(" ", 5);
                    if (parts[0].equals("START") && parts.length >= 3 && parts[1].matches("\\d+")) {
                        startsByPid.computeIfAbsent(parts[2], key -> new ArrayList<>()).add(new String[] {parts[1], incarnation});
                    }
                }
            }
        }
        Map<String, List<NumberRange>> byIncarnation = new HashMap<>();
        long logged = 0;
        for (RangeLogEntry each : log) {
            String owner = null;
            long startedAt = Long.MIN_VALUE;
            for (String[] start : startsByPid.getOrDefault(pidOf(each.owner()), List.of())) {
                long at = Long.parseLong(start[0]);
                if (at <= each.allocatedAtMillis() && at >= startedAt) {
                    startedAt = at;
                    owner = start[1];
                }
            }
            if (owner != null) {
                byIncarnation.computeIfAbsent(owner, key -> new ArrayList<>()).add(each.range());
            }
            logged += each.range().size();
        }
        byIncarnation.values().forEach(each -> each.sort((a, b) -> Long.compare(a.first(), b.first())));
        long total = 0;
        for (Path each : files) {
            total += Files.size(each) / 8;
        }
        long[] all = new long[Math.toIntExact(total)];
        int filled = 0;
        long orderViolations = 0;
        long outside = 0;
        long failedCalls = 0;
        List<String> orderSamples = new ArrayList<>();
        List<String> outsideSamples = new ArrayList<>();
        List<String> failSamples = new ArrayList<>();
        for (Path file : files) {
            String incarnation = file.getFileName().toString().replaceFirst("^ids-", "").replaceFirst("\\.bin$", "");
            long[] keys = IdChecker.read(file);
            System.arraycopy(keys, 0, all, filled, keys.length);
            filled += keys.length;
            String pid = "?";
            long failedHere = 0;
            Path events = dir.resolve("events-" + incarnation + ".txt");
            if (Files.exists(events)) {
                for (String line : Files.readAllLines(events)) {
                    String[] parts = line.split(" ", 5);
                    if (parts[0].equals("START") && parts.length >= 3) {
                        pid = parts[2];
                    } else if (parts[0].equals("FAIL") && parts.length >= 3 && parts[2].matches("\\d+")) {
                        // Counts are cumulative per incarnation; a killed one writes no END line.
                        failedHere = Math.max(failedHere, Long.parseLong(parts[2]));
                        if (failSamples.size() < SAMPLES) {
                            failSamples.add(incarnation + ": " + (parts.length == 5 ? parts[3] + " " + parts[4] : line));
                        }
                    } else if (parts[0].equals("END") && parts.length >= 4 && parts[3].trim().matches("\\d+")) {
                        failedHere = Math.max(failedHere, Long.parseLong(parts[3].trim()));
                    }
                }
            }
            failedCalls += failedHere;
            List<NumberRange> own = byIncarnation.getOrDefault(incarnation, List.of());
            for (int i = 0; i < keys.length; i++) {
                long key = keys[i];
                if ((i > 0 && key <= keys[i - 1]) || key < 1 || key > NumberRange.MAX_KEY) {
                    orderViolations++;
                    if (orderSamples.size() < SAMPLES) {
                        orderSamples.add(incarnation + " #" + i + ": " + (i > 0 ? keys[i - 1] + " then " : "") + key);
                    }
                }
                if (!inside(own, key)) {
                    outside++;
                    if (outsideSamples.size() < SAMPLES) {
                        outsideSamples.add(incarnation + " (pid " + pid + ") issued " + key + ", in no range the log holds for it");
                    }
                }
            }
        }
        Arrays.sort(all, 0, filled);
        List<Long> duplicateSamples = new ArrayList<>();
        long duplicates = IdChecker.duplicates(all, filled, duplicateSamples);
        return new Result(filled, files.size(), duplicates, duplicateSamples, orderViolations, orderSamples, outside, outsideSamples, logged, failedCalls, failSamples);
    }

    /** The pid of an owner {@code pid@host}. */
    static String pidOf(final String owner) {
        int at = owner.indexOf('@');
        return at < 0 ? owner : owner.substring(0, at);
    }

    private static boolean inside(final List<NumberRange> sorted, final long key) {
        int low = 0;
        int high = sorted.size() - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            NumberRange range = sorted.get(middle);
            if (key < range.first()) {
                high = middle - 1;
            } else if (key > range.last()) {
                low = middle + 1;
            } else {
                return true;
            }
        }
        return false;
    }
}
