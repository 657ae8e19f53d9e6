package org.snowkey.keygen.segment.runtime;

import java.util.concurrent.TimeUnit;

import kotlin.Unit;

import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link SegmentRuntimeModelCheckTest} with {@code closeAll} (the shutdown hook's close, a test's) racing the joins,
 * leaves and keys. A close may end a generation an owner has just joined, so here a joined owner may find it closed;
 * keys must still come out once each and increasing in real time across the generations: once a scope is closed, the
 * next generation's keys lie above everything the closed one handed out, and the closed one hands out no key after them.
 */
// Lincheck explores a fixed number of executions on one thread: on a 2-core machine shared with other builds one
// invocation can take far longer than on an idle one, though nothing hangs.
@Timeout(value = 15, unit = TimeUnit.MINUTES)
public class SegmentRuntimeCloseModelCheckTest extends SegmentRuntimeModelCheckTest {

    @Operation
    public void closeAll() {
        runtime().closeAll();
    }

    @Override
    boolean closedIsAViolation() {
        return false;
    }

    @Test
    @Override
    void joinsAndLeavesUnderEveryExploredInterleaving() {
        options().iterations(Integer.getInteger("snowkey.modelcheck.scale", 1)).invocationsPerIteration(300).check(getClass());
    }

    @Test
    @Override
    void aJoinWhileTheLastOwnerLeavesGetsTheNextGeneration() {
        // One thread closes the scope and joins again while the other joins and takes keys.
        options().iterations(0).invocationsPerIteration(1_000 * Integer.getInteger("snowkey.modelcheck.scale", 1))
                .addCustomScenario(scenario -> {
                    scenario.initial(init -> actors(init, "joinAAndTake"));
                    scenario.parallel(parallel -> {
                        parallel.thread(closing -> actors(closing, "closeAll", "joinAAndTake"));
                        parallel.thread(taking -> actors(taking, "joinBAndTake", "joinBAndTake"));
                        return Unit.INSTANCE;
                    });
                    scenario.post(post -> actors(post, "joinBAndTake"));
                    return Unit.INSTANCE;
                })
                .check(getClass());
    }
}
