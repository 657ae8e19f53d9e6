package org.snowkey.keygen.modelcheck;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import kotlin.Unit;
import kotlin.reflect.KFunction;
import kotlin.reflect.jvm.ReflectJvmMapping;

import org.jetbrains.kotlinx.lincheck.execution.ExecutionResult;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.kotlinx.lincheck.execution.ResultWithClock;
import org.jetbrains.kotlinx.lincheck.util.LincheckResult;
import org.jetbrains.kotlinx.lincheck.util.ValueResult;
import org.jetbrains.lincheck.datastructures.DSLScenarioBuilder;
import org.jetbrains.lincheck.datastructures.DSLThreadScenario;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.verifier.Verifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.generator.GeneratorTestAccess;
import org.snowkey.keygen.generator.IdBatch;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.generator.IdUnavailableException;
import org.snowkey.keygen.generator.SequenceStream;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseUnavailableException;
import org.snowkey.keygen.testing.ManualClock;
import org.snowkey.keygen.testing.MemoryLeasePool;

/**
 * Model checking of runs (commit eb18992): a thread that keeps asking for single ids reserves a run of counter values
 * in one compare-and-set and takes them one by one without an atomic step while the counter stands at the run's end.
 * The other model checks use 2 ids per millisecond, where no run forms; here the layout has 8 per millisecond and
 * worker id (W = 18, L = 1) and the clock stands 4 ms ahead of the counter (a time cache), so a thread's second and
 * later single ids in a row form and take runs, while another thread takes ids and batches and a third changes the
 * lease or the holdings, or moves the clock past the cache's cap or back.
 *
 * <p>{@link RunVerifier} rejects an execution in which an id came out twice or a stream went back in real-time order
 * ({@link IncreasingIdsPerStreamVerifier}), or a single id broke a clock rule: its timestamp ahead of the clock at its
 * return, or behind the clock at its start by more than the cap (checked only for calls no clock step-back overlapped,
 * the clock otherwise moving forward only).
 *
 * <p>The lease holds number 2 and the extras take 0 and 1, so that a new counter's first ids carry a lower worker id
 * than the old one's last in a shared millisecond: a run value issued from a sealed counter shows as a stream going
 * back.
 */
public class RunModelCheckTest {

    private static final IdLayout LAYOUT = IdLayout.of(18, 1, IdLayout.defaults().epochMillis());

    private static final long T = LAYOUT.epochMillis() + 1_000_000L;

    private static final long CAP = 5;

    private static final String CLOCK_RULE = "clock rule broken";

    private final ManualClock clock = new ManualClock(T).advanceOnPause(true);

    private final MemoryLeasePool pool = new MemoryLeasePool(8, clock);

    private final MemoryLeasePool.PoolLease lease = leaseOnNumberTwo();

    private final IdGenerator generator = GeneratorTestAccess.withManualHoldings(LAYOUT, lease, clock, new ClockRules(1_000, CAP), 3);

    private final SequenceStream stream = generator.stream("t_order");

    private final SequenceStream itemStream = generator.stream("t_order_item");

    /** Counted up before and after each step-back: a clock check is sound only for a call no step-back overlapped. */
    private final AtomicInteger stepBacks = new AtomicInteger();

    private MemoryLeasePool.PoolLease leaseOnNumberTwo() {
        MemoryLeasePool.PoolLease zero = pool.open();
        MemoryLeasePool.PoolLease one = pool.open();
        zero.currentGrant();
        one.currentGrant();
        MemoryLeasePool.PoolLease own = pool.open();
        own.currentGrant();
        zero.close();
        one.close();
        return own;
    }

    @Operation
    public StreamIds nextId() {
        return single(stream);
    }

    @Operation
    public StreamIds nextItemId() {
        return single(itemStream);
    }

    @Operation
    public StreamIds nextIds() {
        try {
            IdBatch batch = stream.nextIds(3);
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < batch.size(); i++) {
                ids.add(batch.id(i));
            }
            return new StreamIds(stream.name(), ids);
        } catch (final LeaseUnavailableException | IdUnavailableException expected) {
            return null;
        }
    }

    private StreamIds single(final SequenceStream from) {
        int stepBacksBefore = stepBacks.get();
        long clockAtStart = clock.millis();
        long id;
        try {
            id = from.nextId();
        } catch (final LeaseUnavailableException | IdUnavailableException expected) {
            return null;
        }
        long clockAtEnd = clock.millis();
        long timestamp = LAYOUT.decode(id).timestamp().toEpochMilli();
        if (stepBacksBefore % 2 == 0 && stepBacks.get() == stepBacksBefore && (timestamp > clockAtEnd || timestamp < clockAtStart - CAP)) {
            return new StreamIds(CLOCK_RULE, List.of(id, clockAtStart, clockAtEnd));
        }
        return new StreamIds(from.name(), List.of(id));
    }

    /** Gives the counter a time cache within the cap: the clock runs 4 ms ahead. */
    @Operation(nonParallelGroup = "clock")
    public void cache() {
        clock.advance(CAP - 1);
    }

    /** Idle past the time cache's cap. */
    @Operation(nonParallelGroup = "clock")
    public void pastTheCap() {
        clock.advance(3 * CAP);
    }

    /** The clock steps back 20 ms (within the tolerance: calls wait for it). */
    @Operation(nonParallelGroup = "clock")
    public void stepBack() {
        stepBacks.incrementAndGet();
        clock.advance(-20);
        stepBacks.incrementAndGet();
    }

    /** The lease's number is lost (its grant sealed, the release's high-water mark written); the next id acquires it again. */
    @Operation(nonParallelGroup = "holdings")
    public void loseLease() {
        if (lease.grant() != null && !lease.grant().isRevoked()) {
            lease.lose();
        }
    }

    @Operation(nonParallelGroup = "holdings")
    public void addHolding() {
        GeneratorTestAccess.addHolding(generator);
    }

    @Operation(nonParallelGroup = "holdings")
    public void removeHolding() {
        GeneratorTestAccess.removeHolding(generator);
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void aRunEndsAtAnotherThreadsIdOrBatchAndAtALossOfTheLease() {
        // A's second and third ids form and take a run (one holding: 8 values per ms, the clock 4 ms ahead). B takes a
        // batch and an id of the same stream, C loses the lease (the next id acquires number 2 again, in a later
        // millisecond) and takes an item id.
        check(scenario -> {
            scenario.initial(init -> actors(init, "nextId", "cache"));
            scenario.parallel(parallel -> {
                parallel.thread(a -> actors(a, "nextId", "nextId", "nextId"));
                parallel.thread(b -> actors(b, "nextIds", "nextId"));
                parallel.thread(c -> actors(c, "loseLease", "nextItemId"));
                return Unit.INSTANCE;
            });
            scenario.post(post -> actors(post, "nextId", "nextItemId"));
            return Unit.INSTANCE;
        });
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void aRunEndsWhenTheHoldingsChangeOrTheCacheRunsPastItsCap() {
        // Two holdings (16 values per ms; a run starts at the third value of a millisecond). B gives the extra back, C
        // lets the clock run past the cap.
        check(scenario -> {
            scenario.initial(init -> actors(init, "addHolding", "nextId", "cache"));
            scenario.parallel(parallel -> {
                parallel.thread(a -> actors(a, "nextId", "nextId", "nextId", "nextId"));
                parallel.thread(b -> actors(b, "removeHolding", "nextId"));
                parallel.thread(c -> actors(c, "pastTheCap", "nextItemId"));
                return Unit.INSTANCE;
            });
            scenario.post(post -> actors(post, "nextId", "nextItemId"));
            return Unit.INSTANCE;
        });
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void aRunIsNotIssuedAheadOfAClockThatSteppedBackNorBySomeoneElse() {
        // A forms a run, steps the clock back behind it and asks again; B takes single ids of the same stream at once
        // (a run value taken by two threads would come out twice).
        check(scenario -> {
            scenario.initial(init -> actors(init, "nextId", "cache"));
            scenario.parallel(parallel -> {
                parallel.thread(a -> actors(a, "nextId", "nextId", "stepBack", "nextId"));
                parallel.thread(b -> actors(b, "nextId", "nextId", "nextIds"));
                return Unit.INSTANCE;
            });
            scenario.post(post -> actors(post, "nextId"));
            return Unit.INSTANCE;
        });
    }

    private static void check(final kotlin.jvm.functions.Function1<DSLScenarioBuilder, Unit> scenario) {
        new ModelCheckingOptions().iterations(0).invocationsPerIteration(3_000 * SequenceStreamModelCheckTest.scale())
                .verifier(RunVerifier.class)
                .addCustomScenario(scenario)
                .check(RunModelCheckTest.class);
    }

    private static Unit actors(final DSLThreadScenario thread, final String... operations) {
        for (String each : operations) {
            thread.actor(operation(each));
        }
        return Unit.INSTANCE;
    }

    private static KFunction<?> operation(final String name) {
        try {
            return ReflectJvmMapping.getKotlinFunction(RunModelCheckTest.class.getMethod(name));
        } catch (final NoSuchMethodException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** {@link IncreasingIdsPerStreamVerifier}, and no single id that broke a clock rule. */
    public static final class RunVerifier implements Verifier {

        public RunVerifier(final Class<?> sequentialSpecification) {
            // Needs no sequential specification.
        }

        @Override
        public boolean verifyResults(final ExecutionScenario scenario, final ExecutionResult result) {
            List<LincheckResult> all = new ArrayList<>(result.getInitResults());
            for (List<ResultWithClock> thread : result.getParallelResultsWithClock()) {
                for (ResultWithClock each : thread) {
                    all.add(each.getResult());
                }
            }
            all.addAll(result.getPostResults());
            for (LincheckResult each : all) {
                if (each instanceof ValueResult value && value.getValue() instanceof StreamIds ids && CLOCK_RULE.equals(ids.stream())) {
                    return false;
                }
            }
            return IncreasingIdsPerStreamVerifier.failure(result) == null;
        }
    }
}
