package org.snowkey.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.layout.IdLayout;

/**
 * The lease scenarios' checker on generators that issue on several holdings at once: their ids interleave worker ids
 * id by id, which is neither a hand-over nor a new holding, while a real hand-over is still checked against its floor.
 */
class IdCheckerTest {

    private static final IdLayout LAYOUT = HoldingsExperiment.layout();

    /** Logical ms of the first ids. */
    private static final long T = 1_000_000;

    @TempDir
    Path dir;

    /** The id of high counter {@code n} within logical ms {@code t} on {@code workerId}. */
    private static long id(final long t, final int n, final int workerId) {
        return LAYOUT.compose(LAYOUT.counterOf(LAYOUT.highCounterAt(t) + n, 0), workerId);
    }

    /** Ids at ms {@code from..to}, each ms one id per worker id, in the order of the worker ids given (ascending). */
    private static List<Long> interleaved(final long from, final long to, final int... workerIds) {
        List<Long> ids = new ArrayList<>();
        for (long t = from; t <= to; t++) {
            for (int each : workerIds) {
                ids.add(id(t, 0, each));
            }
        }
        return ids;
    }

    private void incarnation(final String name, final List<Long> ids, final String... events) throws IOException {
        Files.writeString(dir.resolve("events-" + name + ".txt"), String.join("\n", events) + "\n");
        try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(dir.resolve("ids-" + name + ".bin")))) {
            for (long each : ids) {
                out.writeLong(each);
            }
        }
    }

    /** A GRANT line: the holding of {@code workerId} with floor logical ms {@code floor}, logged before the id at {@code index}. */
    private static String grant(final int workerId, final long floor, final long index) {
        long wallFloor = LAYOUT.toWallClock(floor);
        return "GRANT " + wallFloor + " " + workerId + " " + wallFloor + " " + (wallFloor + 4_000) + " " + index + " worker id " + workerId;
    }

    @Test
    void interleavedHoldingsAndATakeOverAboveItsFloorPass() throws IOException {
        // The killed process on worker ids 0 (its lease) and 2, 3 (extras); its successor's lease takes 2 over later.
        incarnation("h0-i1", interleaved(T, T + 50, 0, 2, 3), grant(0, T, 0));
        incarnation("h0-i2", interleaved(T + 100, T + 150, 2, 3), grant(2, T + 100, 0));
        IdChecker.Result result = new IdChecker(LAYOUT).check(dir);
        assertTrue(result.passed(), result.toString());
        assertEquals(0, result.floorViolations(), result.toString());
        assertEquals(2, result.handovers(), "worker ids 2 and 3 changed hands: " + result);
        assertEquals(1, result.handoversWithoutGrant(), "3 was an extra of the successor, with no GRANT line: " + result);
    }

    @Test
    void aPredecessorAtOrAboveTheFloorOfATakenOverHoldingFails() throws IOException {
        incarnation("h0-i1", interleaved(T, T + 50, 0, 2, 3), grant(0, T, 0));
        // The successor's floor on worker id 2 lies below the last id its predecessor issued there.
        incarnation("h0-i2", interleaved(T + 100, T + 150, 2, 3), grant(2, T + 40, 0));
        IdChecker.Result result = new IdChecker(LAYOUT).check(dir);
        assertEquals(1, result.floorViolations(), result.toString());
    }

    @Test
    void aHoldingLoggedBeforeAnIdOfAnotherWorkerIdBeginsAtItsOwnWorkerIdsFirstId() throws IOException {
        // The killed process gave worker id 3 back at T + 50 and went on with 0 and 2 until T + 90.
        List<Long> killed = interleaved(T, T + 50, 0, 2, 3);
        killed.addAll(interleaved(T + 51, T + 90, 0, 2));
        incarnation("h0-i1", killed, grant(0, T, 0));
        // The successor logs its lease's grant of worker id 3 (floor T + 60) before its first id, which lands on worker id 2
        // (ranked first): that floor is worker id 3's, below which worker id 2 was still issued.
        incarnation("h0-i2", interleaved(T + 100, T + 150, 2, 3), grant(3, T + 60, 0));
        IdChecker.Result result = new IdChecker(LAYOUT).check(dir);
        assertTrue(result.passed(), result.toString());
        assertEquals(2, result.handovers(), result.toString());
        assertEquals(1, result.handoversWithoutGrant(), "only worker id 2 has no GRANT line in the successor: " + result);
    }
}
