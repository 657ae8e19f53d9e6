package org.snowkey.keygen.modelcheck;

import java.util.List;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.segment.SegmentTestAccess;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.keygen.segment.SegmentSequence;

/**
 * Model checking of one segment sequence (Lincheck): threads take single keys and batches from ranges of two keys,
 * so that nearly every operation crosses into the next range, installs a fetched range or starts a fetch, and the
 * allocator now and then applies an allocation but loses its answer. {@link UniqueIdsVerifier} rejects any
 * execution in which a key came out twice. Fetches run in the thread that starts them, so that every step of a
 * fetch is one the model checker schedules.
 */
public class SegmentSequenceModelCheckTest {

    private final SegmentTestAccess.Fixture fixture = SegmentTestAccess.tinyRanges();

    private final SegmentSequence sequence = fixture.sequence();

    @Operation
    public Long nextId() {
        try {
            return sequence.nextId();
        } catch (final RangeUnavailableException unexpected) {
            return null;
        }
    }

    @Operation
    public List<Long> nextIds() {
        try {
            return List.copyOf(sequence.nextIds(3));
        } catch (final RangeUnavailableException unexpected) {
            return null;
        }
    }

    @Operation(nonParallelGroup = "allocator")
    public void loseTheNextAnswer() {
        fixture.loseTheNextAnswer();
    }

    @Test
    void noKeyTwiceUnderAnyExploredInterleaving() {
        new ModelCheckingOptions().threads(3).actorsPerThread(3).actorsBefore(1).actorsAfter(1)
                .iterations(3 * SequenceStreamModelCheckTest.scale()).invocationsPerIteration(200)
                .verifier(UniqueIdsVerifier.class).check(getClass());
    }
}
