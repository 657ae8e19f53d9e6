package org.snowkey.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.segment.store.RangeLogEntry;

/** The segment scenario's checker fails on what it exists to find, and never passes on nothing. */
class SegmentKeyCheckerTest {

    @TempDir
    Path dir;

    private void incarnation(final String name, final long pid, final long startMillis, final long... keys) throws IOException {
        Files.writeString(dir.resolve("events-" + name + ".txt"), "START " + startMillis + " " + pid + "\n");
        try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(dir.resolve("ids-" + name + ".bin")))) {
            for (long each : keys) {
                out.writeLong(each);
            }
        }
    }

    private static RangeLogEntry entry(final long first, final long last, final long pid, final long millis) {
        return new RangeLogEntry("segment-key", new NumberRange(first, last), pid + "@host", millis);
    }

    @Test
    void aCleanRunPasses() throws IOException {
        incarnation("s0-i1", 11, 1_000, 1, 2, 3);
        incarnation("s1-i1", 12, 1_000, 11, 12);
        SegmentKeyChecker.Result result = SegmentKeyChecker.check(dir, List.of(entry(1, 10, 11, 1_001), entry(11, 20, 12, 1_002)));
        assertTrue(result.passed(), result.toString());
        assertEquals(5, result.keys());
    }

    @Test
    void noKeysProveNothing() throws IOException {
        assertFalse(SegmentKeyChecker.check(dir, List.of(entry(1, 10, 11, 1_001))).passed(), "a run without keys must not pass");
    }

    @Test
    void aDuplicateAcrossProcessesFails() throws IOException {
        // Both keep their own ranges' keys, and one key twice: the duplicate check alone must catch it.
        incarnation("s0-i1", 11, 1_000, 1, 2, 15);
        incarnation("s1-i1", 12, 1_000, 15, 16);
        SegmentKeyChecker.Result result = SegmentKeyChecker.check(dir, List.of(entry(1, 10, 11, 1_001), entry(11, 20, 11, 1_002), entry(11, 20, 12, 1_003)));
        assertEquals(1, result.duplicates(), result.toString());
        assertFalse(result.passed());
    }

    @Test
    void aKeyOutsideItsProcessRangesFails() throws IOException {
        incarnation("s0-i1", 11, 1_000, 1, 2);
        incarnation("s1-i1", 12, 1_000, 11, 25);
        SegmentKeyChecker.Result result = SegmentKeyChecker.check(dir, List.of(entry(1, 10, 11, 1_001), entry(11, 20, 12, 1_002), entry(21, 30, 11, 1_003)));
        assertEquals(1, result.outsideOwnRange(), result.toString());
        assertFalse(result.passed());
    }

    @Test
    void aReusedPidDoesNotInheritTheKilledIncarnationsRanges() throws IOException {
        // s0-i1 (pid 11) took 1..10, issued 1..3 and was killed; s0-i2 got pid 11 again, took 11..20 and issued 4: a
        // number of the killed one's unused tail, a range it never got, yet no duplicate.
        incarnation("s0-i1", 11, 1_000, 1, 2, 3);
        incarnation("s0-i2", 11, 5_000, 4, 11);
        SegmentKeyChecker.Result result = SegmentKeyChecker.check(dir, List.of(entry(1, 10, 11, 1_001), entry(11, 20, 11, 5_001)));
        assertEquals(1, result.outsideOwnRange(), result.toString());
        assertFalse(result.passed());
    }

    @Test
    void aKeyCutShortAtSigkillIsDropped() throws IOException {
        incarnation("s0-i1", 11, 1_000, 1, 2);
        Files.write(dir.resolve("ids-s0-i1.bin"), new byte[] {0, 0, 0}, java.nio.file.StandardOpenOption.APPEND);
        Files.writeString(dir.resolve("events-s0-i1.txt"), "END 12", java.nio.file.StandardOpenOption.APPEND);
        SegmentKeyChecker.Result result = SegmentKeyChecker.check(dir, List.of(entry(1, 10, 11, 1_001)));
        assertEquals(2, result.keys(), result.toString());
        assertTrue(result.passed(), result.toString());
    }
}
