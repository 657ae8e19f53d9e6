package org.snowkey.keygen.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

class SegmentBatchTest {

    @Test
    void piecesReadInOrder() {
        SegmentBatch.Builder builder = new SegmentBatch.Builder();
        builder.add(8, 3);
        builder.add(21, 1);
        builder.add(40, 2);
        builder.add(90, 1);
        builder.add(100, 2);
        SegmentBatch batch = builder.build();
        assertEquals(List.of(8L, 9L, 10L, 21L, 40L, 41L, 90L, 100L, 101L), batch);
        assertThrows(IndexOutOfBoundsException.class, () -> batch.key(9));
        assertThrows(IndexOutOfBoundsException.class, () -> batch.key(-1));
    }

    @Test
    void aContiguousBatchIsOnePiece() {
        assertEquals(List.of(5L, 6L, 7L), SegmentBatch.contiguous(5, 3));
    }
}
