package org.snowkey.keygen.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class IdLayoutTest {

    private static final long EPOCH = Instant.parse("2025-01-01T00:00:00Z").toEpochMilli();

    @Test
    void defaultLayoutPlacesEachFieldWhereTheDesignSays() {
        IdLayout layout = IdLayout.defaults();
        // t = 5, sequence = 0b1_0110_0101 (high part 0b1011_0010, low bit 1), worker 0x1ABC
        long counter = 5L << 9 | 0b1_0110_0101L;
        long id = layout.compose(counter, 0x1ABC);
        assertEquals(5L, id >>> 22, "timestamp in bits 62..22");
        assertEquals(0b1011_0010L, (id >>> 14) & 0xFF, "sequence high part in bits 21..14");
        assertEquals(0x1ABCL, (id >>> 1) & 0x1FFF, "worker id in bits 13..1");
        assertEquals(1L, id & 1, "sequence low part in bit 0");
        assertEquals(9, layout.sequenceBits());
        assertEquals(8192, layout.workerIdCount());
        assertEquals(512, layout.idsPerMillisecond());
        assertEquals(EPOCH, layout.epochMillis());
    }

    @Test
    void decodeInvertsComposeOverRandomParameters() {
        SplittableRandom random = new SplittableRandom(42);
        for (int round = 0; round < 20_000; round++) {
            int workerIdBits = random.nextInt(IdLayout.MIN_WORKER_ID_BITS, IdLayout.MAX_WORKER_ID_BITS + 1);
            int sequenceBits = 22 - workerIdBits;
            int lowBits = random.nextInt(0, sequenceBits + 1);
            long epoch = random.nextLong(0, EPOCH);
            IdLayout layout = IdLayout.of(workerIdBits, lowBits, epoch);
            long timestamp = random.nextLong(0, IdLayout.MAX_TIMESTAMP + 1);
            int sequence = random.nextInt(0, 1 << sequenceBits);
            int workerId = random.nextInt(0, 1 << workerIdBits);
            long id = layout.compose(layout.counterAt(timestamp) + sequence, workerId);
            assertTrue(id >= 0, "ids are never negative");
            DecodedId decoded = layout.decode(id);
            assertEquals(timestamp, decoded.logicalTimestamp(), layout::toString);
            assertEquals(workerId, decoded.workerId(), layout::toString);
            assertEquals(sequence, decoded.sequence(), layout::toString);
            assertEquals(Instant.ofEpochMilli(epoch + timestamp), decoded.timestamp());
        }
    }

    @Test
    void consecutiveCountersGiveStrictlyIncreasingIdsThatCycleThroughTheLowBits() {
        for (int lowBits = 0; lowBits <= 3; lowBits++) {
            IdLayout layout = IdLayout.of(10, lowBits, EPOCH);
            long previous = -1;
            int modulus = 1 << lowBits;
            for (long counter = layout.counterAt(77); counter < layout.counterAt(80); counter++) {
                long id = layout.compose(counter, 1023);
                assertTrue(id > previous, "strictly increasing at counter " + counter);
                assertEquals(counter % modulus, id % modulus, "id % 2^L follows the counter");
                previous = id;
            }
        }
    }

    @Test
    void rejectsParametersOutOfRangeNamingThem() {
        assertEquals("worker-id-bits must be from 1 to 21, was 22", assertThrows(IllegalArgumentException.class, () -> IdLayout.of(22, 0, EPOCH)).getMessage());
        assertEquals("sequence-low-bits must be from 0 to 9 (22 - worker-id-bits), was 10",
                assertThrows(IllegalArgumentException.class, () -> IdLayout.of(13, 10, EPOCH)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> IdLayout.defaults().decode(-1));
    }
}
