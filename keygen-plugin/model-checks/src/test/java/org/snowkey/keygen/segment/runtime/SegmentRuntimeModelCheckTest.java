package org.snowkey.keygen.segment.runtime;

import java.util.concurrent.TimeUnit;

import kotlin.Unit;

import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.segment.RangeUnavailableException;

/**
 * Model checking of the segment runtime's join and leave of one scope (Lincheck), on the lifecycle the snowflake's
 * scopes use ({@code RuntimeModelCheckTest}), over a {@link SegmentRuntimeFixture} per invocation. Owner A joins,
 * takes a key and leaves; owner B joins once and keeps its scope, as a key generator keeps the scope it bound, and
 * takes keys from it. B never leaves and nothing closes the scope, so B's scope must never be closed under it: a take
 * that finds it closed returns a {@link String} saying so. {@link JoinedSegmentOwnersVerifier} rejects that, any key
 * seen twice across the scope's generations, and keys that do not increase in real time.
 */
// Lincheck explores a fixed number of executions on one thread: on a 2-core machine shared with other builds one
// invocation can take far longer than on an idle one, though nothing hangs.
@Timeout(value = 15, unit = TimeUnit.MINUTES)
public class SegmentRuntimeModelCheckTest {

    private final SegmentRuntimeFixture fixture = new SegmentRuntimeFixture();

    private final Object ownerA = new Object();

    private final Object ownerB = new Object();

    /** B's scope once B has joined; B keeps it, as a key generator keeps the scope it bound. */
    private volatile SegmentScope scopeB;

    /** A joins and takes a key at once; A may leave meanwhile (another thread), so a closed scope is no violation here. */
    @Operation
    public Long joinAAndTake() {
        try {
            return fixture.runtime.join(fixture.plan, ownerA).sequence(SegmentRuntimeFixture.TABLE).nextId();
        } catch (final RangeUnavailableException closed) {
            return null;
        }
    }

    @Operation
    public void leaveA() {
        fixture.runtime.release(ownerA);
    }

    @Operation
    public void joinB() {
        scopeB = fixture.runtime.join(fixture.plan, ownerB);
    }

    /** A key of B's scope: B never leaves and nothing closes, so its scope must still issue. */
    @Operation
    public Object takeB() {
        SegmentScope scope = scopeB;
        if (scope == null) {
            return null;
        }
        try {
            return scope.sequence(SegmentRuntimeFixture.TABLE).nextId();
        } catch (final RangeUnavailableException closed) {
            return "B's scope was closed while B owned it: " + closed.getMessage();
        }
    }

    @Test
    void anOwnersScopeIsNeverClosedByAnotherOwnersLeave() {
        // The two first keys use up the first range, so a take from a closed scope needs a range and fails (a closed
        // sequence also refuses what is left of its current range). B joins and takes while A, the only owner so far,
        // leaves and joins again: B's join either precedes A's leave (one generation, two owners, nothing closes) or
        // follows it (the next generation).
        SegmentRuntimeFixture.options(JoinedSegmentOwnersVerifier.class).iterations(0).invocationsPerIteration(500 * SegmentRuntimeFixture.scale())
                .addCustomScenario(scenario -> {
                    scenario.initial(init -> SegmentRuntimeFixture.actors(getClass(), init, "joinAAndTake", "joinAAndTake"));
                    scenario.parallel(parallel -> {
                        parallel.thread(leaving -> SegmentRuntimeFixture.actors(getClass(), leaving, "leaveA", "joinAAndTake"));
                        parallel.thread(taking -> SegmentRuntimeFixture.actors(getClass(), taking, "joinB", "takeB", "takeB"));
                        return Unit.INSTANCE;
                    });
                    scenario.post(post -> SegmentRuntimeFixture.actors(getClass(), post, "takeB"));
                    return Unit.INSTANCE;
                })
                .check(getClass());
    }
}
