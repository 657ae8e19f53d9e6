package org.snowkey.keygen.modelcheck;

import static org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt.forClasses;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import kotlin.Unit;
import kotlin.reflect.KFunction;
import kotlin.reflect.jvm.ReflectJvmMapping;

import org.jetbrains.lincheck.datastructures.DSLThreadScenario;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.testing.ManualClock;
import org.snowkey.keygen.segment.SegmentTestAccess;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.keygen.segment.SegmentSequence;

/**
 * Model checking of one segment sequence (Lincheck): threads take single keys and batches from ranges of two keys,
 * so that nearly every operation crosses into the next range, installs a fetched range or starts a fetch, and the
 * allocator now and then applies an allocation but loses its answer. {@link IncreasingKeysVerifier} rejects any
 * execution in which a key came out twice or keys did not increase in real time (per thread, and between
 * operations one of which returned before the other started). Fetches run in the thread that starts them, so that
 * every step of a fetch is one the model checker schedules; the first key of a range starts the next fetch.
 */
// Lincheck explores a fixed number of executions on one thread: on a 2-core machine shared with other builds (load
// average 16) one of these tests took 6.6 minutes and failed the suite's 5-minute default though nothing hung.
@Timeout(value = 15, unit = TimeUnit.MINUTES)
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
        // One random scenario in CI, N with -Dsnowkey.modelcheck.scale=N; the known races are the fixed scenarios below.
        new ModelCheckingOptions().threads(3).actorsPerThread(3).actorsBefore(1).actorsAfter(1)
                .iterations(SequenceStreamModelCheckTest.scale()).invocationsPerIteration(200)
                .verifier(IncreasingKeysVerifier.class).check(getClass());
    }

    /**
     * Two waiters on different fetches. The initial calls take keys 1 and 2 (taking 1 fetched 3..4). The late caller
     * finds 1..2 used up, waits on the fetch of 3..4 and pauses before installing it; the installer installs 3..4, takes
     * 3 (which fetches 5..6) and 4; the waiter finds 3..4 used up, waits on the fetch of 5..6 and pauses before
     * installing it. Were the late caller not to check that the range it waited for is still the pending one and the
     * range it found used up still the current one, it would install 3..4 again and drop the pending 5..6, then fetch
     * and install 7..8 and return 7; the waiter would install 5..6 over it, and the closing call return 6, below a key
     * returned before it started. Found within a few hundred invocations; the two pauses need the atomic collaborators.
     */
    @Test
    void aLateInstallerAndAWaiterOnTheNextFetchNeverMakeKeysDecrease() {
        new ModelCheckingOptions().iterations(0).invocationsPerIteration(1_000 * SequenceStreamModelCheckTest.scale())
                .verifier(IncreasingKeysVerifier.class)
                // Switch threads only in the sequence: the allocator (the store, atomic by contract), the clock, the
                // statistics and logging stay uninterrupted, which leaves few enough switch points for the two pauses.
                .addGuarantee(forClasses(atomicCollaborators())
                        .allMethods().treatAsAtomic())
                .addCustomScenario(scenario -> {
                    scenario.initial(init -> actors(init, "nextId", "nextId"));
                    scenario.parallel(parallel -> {
                        parallel.thread(late -> actors(late, "nextId"));
                        parallel.thread(waiter -> actors(waiter, "nextId"));
                        parallel.thread(installer -> actors(installer, "nextId", "nextId"));
                        return Unit.INSTANCE;
                    });
                    scenario.post(post -> actors(post, "nextId"));
                    return Unit.INSTANCE;
                })
                .check(getClass());
    }

    private static String[] atomicCollaborators() {
        List<String> names = new ArrayList<>(SegmentTestAccess.collaboratorClassNames());
        names.add(ManualClock.class.getName());
        names.add("org.slf4j.Logger");
        return names.toArray(String[]::new);
    }

    private static Unit actors(final DSLThreadScenario thread, final String... operations) {
        for (String each : operations) {
            try {
                KFunction<?> operation = ReflectJvmMapping.getKotlinFunction(SegmentSequenceModelCheckTest.class.getMethod(each));
                thread.actor(operation);
            } catch (final NoSuchMethodException ex) {
                throw new IllegalStateException(ex);
            }
        }
        return Unit.INSTANCE;
    }
}
