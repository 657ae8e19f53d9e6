package org.snowkey.keygen.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;

/**
 * The arithmetic on every id's path with several holdings ({@link Holdings}): the quotient by the holding count without a
 * division instruction, and the id written out from the high counter, agree with plain division and with
 * {@link IdLayout#compose} for every holding count a layout allows and dividends up to the largest counter value.
 */
class HoldingsArithmeticTest {

    private static final long EPOCH = 1_700_000_000_000L;

    private static Holdings holdings(final IdLayout layout, final int count, final SplittableRandom random) {
        List<LeaseGrant> grants = new ArrayList<>();
        int stride = Math.max(1, layout.workerIdCount() / count);
        int first = random.nextInt(Math.max(1, layout.workerIdCount() - stride * (count - 1)));
        for (int rank = 0; rank < count; rank++) {
            int workerId = Math.min(layout.workerIdCount() - count + rank, first + rank * stride);
            grants.add(new LeaseGrant(workerId, 0, LeaseGrant.UNBOUNDED, "worker id " + workerId));
        }
        return Holdings.of(layout, grants);
    }

    private static long[] dividends(final long largest, final int count, final SplittableRandom random) {
        long[] values = new long[200];
        int i = 0;
        for (long each : new long[] {0, 1, count - 1L, count, count + 1L, largest, largest - 1, largest - count, Long.MAX_VALUE, Long.MAX_VALUE - count}) {
            values[i++] = Math.max(0, each);
        }
        while (i < values.length) {
            // Spread over every magnitude, not only near the top.
            int bits = 1 + random.nextInt(63);
            values[i++] = bits == 63 ? random.nextLong() & Long.MAX_VALUE : random.nextLong(1L << bits);
        }
        return values;
    }

    @Test
    void theQuotientIsTheFloorOfTheDivisionForEveryHoldingCount() {
        SplittableRandom random = new SplittableRandom(42);
        IdLayout layout = IdLayout.of(13, 1, EPOCH);
        for (int count = 1; count <= layout.workerIdCount() - 1; count += count < 300 ? 1 : 37) {
            Holdings holdings = holdings(layout, count, random);
            for (long each : dividends(Long.MAX_VALUE, count, random)) {
                assertEquals(Math.floorDiv(each, count), holdings.quotient(each), each + " / " + count);
                assertEquals((int) Math.floorMod(each, (long) count), holdings.rankOf(each), each + " mod " + count);
            }
            for (long each : new long[] {-1, -count, -count - 1L, Long.MIN_VALUE + 1}) {
                assertEquals(Math.floorDiv(each, count), holdings.quotient(each), each + " / " + count);
            }
        }
    }

    @Test
    void anIdWrittenOutIsTheLayoutsComposition() {
        SplittableRandom random = new SplittableRandom(7);
        for (int workerIdBits : new int[] {1, 5, 10, 13, 20}) {
            int sequenceBits = IdLayout.NODE_AND_SEQUENCE_BITS - workerIdBits;
            for (int lowBits = 0; lowBits < sequenceBits; lowBits += Math.max(1, sequenceBits / 3)) {
                IdLayout layout = IdLayout.of(workerIdBits, lowBits, EPOCH);
                int maxCount = Math.min(64, layout.workerIdCount());
                for (int count = 1; count <= maxCount; count = count * 2 + (count % 3 == 0 ? 1 : 0)) {
                    Holdings holdings = holdings(layout, count, random);
                    long largest = holdings.counterAt(IdLayout.MAX_TIMESTAMP + 1) - 1;
                    for (long combined : dividends(largest, count, random)) {
                        long valid = Math.min(combined, largest);
                        long cycle = random.nextLong(Long.MAX_VALUE);
                        long expected = layout.compose(layout.counterOf(holdings.highOf(valid), cycle), holdings.grant(holdings.rankOf(valid)).workerId());
                        assertEquals(expected, holdings.compose(valid, cycle), "W=" + workerIdBits + " L=" + lowBits + " K=" + count + " c=" + valid);
                    }
                }
            }
        }
    }
}
