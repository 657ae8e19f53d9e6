package org.snowkey.keygen.segment.runtime;

import java.util.concurrent.TimeUnit;

import kotlin.Unit;

import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.modelcheck.IncreasingKeysVerifier;
import org.snowkey.keygen.segment.RangeUnavailableException;

/**
 * Model checking of the segment runtime's joins, leaves and {@code closeAll} (the shutdown hook's close) racing
 * owners that join and take a key at once (Lincheck), over a {@link SegmentRuntimeFixture} per invocation. A close may
 * end a generation an owner has just joined, so a take may fail; {@link IncreasingKeysVerifier} still requires every
 * key once and keys increasing in real time across the generations: a join never gets a generation that is closing,
 * and the next generation's keys lie above everything the closed one handed out.
 */
// Lincheck explores a fixed number of executions on one thread: on a 2-core machine shared with other builds one
// invocation can take far longer than on an idle one, though nothing hangs.
@Timeout(value = 15, unit = TimeUnit.MINUTES)
public class SegmentRuntimeCloseModelCheckTest {

    private final SegmentRuntimeFixture fixture = new SegmentRuntimeFixture();

    private final Object ownerA = new Object();

    private final Object ownerB = new Object();

    @Operation
    public Long joinAAndTake() {
        return joinAndTake(ownerA);
    }

    @Operation
    public Long joinBAndTake() {
        return joinAndTake(ownerB);
    }

    @Operation
    public void leaveA() {
        fixture.runtime.release(ownerA);
    }

    @Operation
    public void closeAll() {
        fixture.runtime.closeAll();
    }

    private Long joinAndTake(final Object owner) {
        try {
            return fixture.runtime.join(fixture.plan, owner).sequence(SegmentRuntimeFixture.TABLE).nextId();
        } catch (final RangeUnavailableException closed) {
            return null;
        }
    }

    @Test
    void joinsLeavesAndClosesUnderEveryExploredInterleaving() {
        SegmentRuntimeFixture.options(IncreasingKeysVerifier.class).iterations(SegmentRuntimeFixture.scale()).invocationsPerIteration(200).check(getClass());
    }

    @Test
    void aCloseWhileAnotherOwnerTakesKeysEndsItsGenerationForGood() {
        // One thread closes the scope and joins again while the other joins and takes keys.
        SegmentRuntimeFixture.options(IncreasingKeysVerifier.class).iterations(0).invocationsPerIteration(500 * SegmentRuntimeFixture.scale())
                .addCustomScenario(scenario -> {
                    scenario.initial(init -> SegmentRuntimeFixture.actors(getClass(), init, "joinAAndTake", "joinAAndTake"));
                    scenario.parallel(parallel -> {
                        parallel.thread(closing -> SegmentRuntimeFixture.actors(getClass(), closing, "closeAll", "joinAAndTake"));
                        parallel.thread(taking -> SegmentRuntimeFixture.actors(getClass(), taking, "joinBAndTake", "joinBAndTake"));
                        return Unit.INSTANCE;
                    });
                    scenario.post(post -> SegmentRuntimeFixture.actors(getClass(), post, "joinBAndTake"));
                    return Unit.INSTANCE;
                })
                .check(getClass());
    }
}
