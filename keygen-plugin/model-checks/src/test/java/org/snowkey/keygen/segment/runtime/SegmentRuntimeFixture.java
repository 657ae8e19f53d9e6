package org.snowkey.keygen.segment.runtime;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import kotlin.Unit;
import kotlin.reflect.KFunction;
import kotlin.reflect.jvm.ReflectJvmMapping;

import org.jetbrains.lincheck.datastructures.DSLThreadScenario;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.snowkey.keygen.runtime.Scopes;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.RangeAllocator;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.keygen.segment.StartValues;
import org.snowkey.keygen.testing.ManualClock;

/**
 * One segment runtime for one model-checked invocation, over its own in-memory store with ranges of two keys fetched
 * in the caller's thread on a manual clock: explored executions share nothing, and nearly every key crosses into a
 * new range.
 */
final class SegmentRuntimeFixture {

    static final String TABLE = "db.t_order";

    /** The store's counter of the table: it outlives every generation, as a database row does. */
    private final AtomicLong stored = new AtomicLong();

    final SegmentRuntime runtime = new SegmentRuntime(new ManualClock(1_000_000L).advanceOnPause(true), Runnable::run, "pid@model-check",
            hook -> { }, Scopes.Waiting.SPIN);

    final SegmentPlan plan = new SegmentPlan(new MemoryStore(), new SegmentSettings(2, 2, 10_000, 50, 600_000), new StartValues(1, Map.of()), SegmentKey.PER_TABLE);

    /** {@code -Dsnowkey.modelcheck.scale=N} explores N times as many scenarios and interleavings. */
    static int scale() {
        return Integer.getInteger("snowkey.modelcheck.scale", 1);
    }

    static ModelCheckingOptions options(final Class<?> verifier) {
        // The loop bound and the invocation timeout are RuntimeModelCheckTest's, for its reasons (a HashMap's table is a
        // long loop; the agent's retransformations can outlast the 30 s default on a loaded machine).
        ModelCheckingOptions options = new ModelCheckingOptions().loopBound(1_000).threads(2).actorsPerThread(3).actorsBefore(1).actorsAfter(1)
                .verifier(verifier.asSubclass(org.jetbrains.lincheck.datastructures.verifier.Verifier.class));
        return options.invocationTimeout$lincheck(TimeUnit.MINUTES.toMillis(5));
    }

    static Unit actors(final Class<?> test, final DSLThreadScenario thread, final String... operations) {
        for (String each : operations) {
            try {
                KFunction<?> operation = ReflectJvmMapping.getKotlinFunction(test.getMethod(each));
                thread.actor(operation);
            } catch (final NoSuchMethodException ex) {
                throw new IllegalStateException(ex);
            }
        }
        return Unit.INSTANCE;
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
