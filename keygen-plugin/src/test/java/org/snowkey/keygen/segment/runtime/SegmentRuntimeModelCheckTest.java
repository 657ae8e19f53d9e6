package org.snowkey.keygen.segment.runtime;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import kotlin.Unit;
import kotlin.reflect.KFunction;
import kotlin.reflect.jvm.ReflectJvmMapping;

import org.jetbrains.lincheck.datastructures.DSLThreadScenario;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.runtime.Scopes;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.RangeAllocator;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.keygen.segment.StartValues;
import org.snowkey.keygen.testing.ManualClock;

/**
 * Model checking of the segment runtime's join and leave of one scope (Lincheck), on the lifecycle the snowflake's
 * scopes use ({@code RuntimeModelCheckTest}). Each invocation builds its own runtime over its own in-memory store,
 * with ranges of two keys fetched in the caller's thread, so that explored executions share nothing and nearly every
 * key crosses into a new range. Operations join as an owner and take one key of the scope's one table: they return
 * it, or a {@link String} naming the failure when the generation they joined was closed.
 * {@link JoinedSegmentOwnersVerifier} rejects that, any key seen twice across the scope's generations, and keys that
 * do not increase in real time: a closed generation that handed out a key after the next generation issued one.
 */
// Lincheck explores a fixed number of executions on one thread: on a 2-core machine shared with other builds one
// invocation can take far longer than on an idle one, though nothing hangs.
@Timeout(value = 15, unit = TimeUnit.MINUTES)
public class SegmentRuntimeModelCheckTest {

    private static final String TABLE = "db.t_order";

    /** The store's counter of the table: it outlives every generation, as a database row does. */
    private final AtomicLong stored = new AtomicLong();

    private final SegmentRuntime runtime = new SegmentRuntime(new ManualClock(1_000_000L).advanceOnPause(true), Runnable::run, "pid@model-check",
            hook -> { }, Scopes.Waiting.SPIN);

    private final SegmentPlan plan = new SegmentPlan(new MemoryStore(), new SegmentSettings(2, 2, 10_000, 50, 600_000), new StartValues(1, Map.of()), null);

    private final Object ownerA = new Object();

    private final Object ownerB = new Object();

    @Operation
    public Object joinAAndTake() {
        return joinAndTake(ownerA);
    }

    @Operation
    public Object joinBAndTake() {
        return joinAndTake(ownerB);
    }

    @Operation
    public void leaveA() {
        runtime.release(ownerA);
    }

    @Operation
    public void leaveB() {
        runtime.release(ownerB);
    }

    /** An owner joins and takes a key at once: the generation it joined must not be closed under it. */
    private Object joinAndTake(final Object owner) {
        try {
            return runtime.join(plan, owner).sequence(TABLE).nextId();
        } catch (final RangeUnavailableException closed) {
            return closedIsAViolation() ? "joined a closed generation: " + closed.getMessage() : null;
        }
    }

    /** Whether an owner that joined and finds its generation closed breaks the rules (not where a close may run). */
    boolean closedIsAViolation() {
        return true;
    }

    SegmentRuntime runtime() {
        return runtime;
    }

    @Test
    void joinsAndLeavesUnderEveryExploredInterleaving() {
        options().iterations(Integer.getInteger("snowkey.modelcheck.scale", 1)).invocationsPerIteration(300).check(getClass());
    }

    @Test
    void aJoinWhileTheLastOwnerLeavesGetsTheNextGeneration() {
        // A takes keys and is the scope's only owner; A leaves and joins again while B joins and takes keys.
        options().iterations(0).invocationsPerIteration(1_000 * Integer.getInteger("snowkey.modelcheck.scale", 1))
                .addCustomScenario(scenario -> {
                    scenario.initial(init -> actors(init, "joinAAndTake"));
                    scenario.parallel(parallel -> {
                        parallel.thread(leaving -> actors(leaving, "leaveA", "joinAAndTake"));
                        parallel.thread(taking -> actors(taking, "joinBAndTake", "joinBAndTake"));
                        return Unit.INSTANCE;
                    });
                    scenario.post(post -> actors(post, "joinAAndTake"));
                    return Unit.INSTANCE;
                })
                .check(getClass());
    }

    static ModelCheckingOptions options() {
        // The loop bound and the invocation timeout are RuntimeModelCheckTest's, for its reasons (a HashMap's table is a
        // long loop; the agent's retransformations can outlast the 30 s default on a loaded machine).
        ModelCheckingOptions options = new ModelCheckingOptions().loopBound(1_000).threads(2).actorsPerThread(3).actorsBefore(1).actorsAfter(1)
                .verifier(JoinedSegmentOwnersVerifier.class);
        return options.invocationTimeout$lincheck(TimeUnit.MINUTES.toMillis(5));
    }

    static Unit actors(final DSLThreadScenario thread, final String... operations) {
        for (String each : operations) {
            thread.actor(operation(each));
        }
        return Unit.INSTANCE;
    }

    private static KFunction<?> operation(final String name) {
        for (Class<?> each : new Class<?>[] {SegmentRuntimeModelCheckTest.class, SegmentRuntimeCloseModelCheckTest.class}) {
            try {
                return ReflectJvmMapping.getKotlinFunction(each.getMethod(name));
            } catch (final NoSuchMethodException ex) {
                // Declared by the other class.
            }
        }
        throw new IllegalStateException("no operation " + name);
    }

    /** The store of this invocation: ranges from {@link #stored}, refused once the generation's allocator is closed. */
    private final class MemoryStore implements PreparedAllocator {

        @Override
        public String scopeKey() {
            return "memory";
        }

        @Override
        public OpenAllocator open(final String owner, final StartValues starts) {
            boolean[] closed = new boolean[1];
            RangeAllocator allocator = new RangeAllocator() {

                @Override
                public NumberRange allocate(final String key, final long size) {
                    if (closed[0]) {
                        throw new RangeUnavailableException("the in-memory store's client is closed");
                    }
                    long last = stored.addAndGet(size);
                    return new NumberRange(last - size + 1, last);
                }

                @Override
                public String describe() {
                    return "in-memory store";
                }
            };
            return OpenAllocator.of(allocator, () -> closed[0] = true);
        }
    }
}
