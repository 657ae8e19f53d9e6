package org.snowkey.keygen.modelcheck;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.jetbrains.kotlinx.lincheck.execution.ExecutionResult;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.kotlinx.lincheck.execution.HBClock;
import org.jetbrains.kotlinx.lincheck.execution.ResultWithClock;
import org.jetbrains.kotlinx.lincheck.util.LincheckResult;
import org.jetbrains.kotlinx.lincheck.util.ValueResult;
import org.jetbrains.lincheck.datastructures.verifier.Verifier;

/**
 * Accepts an execution of one segment sequence when no key came out twice ({@link UniqueIdsVerifier}) and keys
 * increase in real time: a batch increases, and every key of an operation that returned before another one started
 * lies below every key of that other one. The initial operations precede all parallel ones and the closing ones
 * follow them; between parallel threads, "returned before started" is read from Lincheck's happens-before clock
 * ({@code clockOnStart[t]} = how many operations of thread {@code t} had returned when this one started), which the
 * model checker records for every operation. A range installed below one already in use breaks this even when no key
 * repeats within the few operations of a scenario.
 */
public final class IncreasingKeysVerifier implements Verifier {

    /** What {@link #highestIncreasing} answers for operations whose keys do not increase. */
    private static final long BROKEN = Long.MAX_VALUE;

    private final UniqueIdsVerifier unique;

    public IncreasingKeysVerifier(final Class<?> sequentialSpecification) {
        unique = new UniqueIdsVerifier(sequentialSpecification);
    }

    @Override
    public boolean verifyResults(final ExecutionScenario scenario, final ExecutionResult result) {
        return unique.verifyResults(scenario, result) && increasing(result);
    }

    private static boolean increasing(final ExecutionResult result) {
        List<List<ResultWithClock>> threads = result.getParallelResultsWithClock();
        long highestBefore = highestIncreasing(result.getInitResults(), Long.MIN_VALUE);
        if (highestBefore == BROKEN) {
            return false;
        }
        long highestParallel = highestBefore;
        for (int thread = 0; thread < threads.size(); thread++) {
            List<ResultWithClock> operations = threads.get(thread);
            for (int index = 0; index < operations.size(); index++) {
                List<Long> keys = keys(operations.get(index).getResult());
                if (keys.isEmpty()) {
                    continue;
                }
                if (!increasingWithin(keys) || keys.get(0) <= highestBefore) {
                    return false;
                }
                highestParallel = Math.max(highestParallel, keys.get(keys.size() - 1));
                if (!aboveEverythingReturnedBefore(threads, thread, index, operations.get(index).getClockOnStart(), keys.get(0))) {
                    return false;
                }
            }
        }
        return highestIncreasing(result.getPostResults(), highestParallel) != BROKEN;
    }

    /** Keys of operations run one after the other, each above {@code floor}: the highest, or {@link #BROKEN}. */
    private static long highestIncreasing(final List<LincheckResult> sequential, final long floor) {
        long highest = floor;
        for (LincheckResult each : sequential) {
            List<Long> keys = keys(each);
            if (keys.isEmpty()) {
                continue;
            }
            if (!increasingWithin(keys) || keys.get(0) <= highest) {
                return BROKEN;
            }
            highest = keys.get(keys.size() - 1);
        }
        return highest;
    }

    /**
     * Every key of every operation that had returned when operation {@code index} of {@code thread} started lies below
     * {@code lowest}: the earlier operations of its own thread, and those the clock says had returned in the others.
     */
    private static boolean aboveEverythingReturnedBefore(final List<List<ResultWithClock>> threads, final int thread, final int index, final HBClock started,
            final long lowest) {
        for (int other = 0; other < threads.size(); other++) {
            int returned = other == thread ? index : Math.min(started.get(other), threads.get(other).size());
            for (int earlierIndex = 0; earlierIndex < returned; earlierIndex++) {
                List<Long> earlier = keys(threads.get(other).get(earlierIndex).getResult());
                if (!earlier.isEmpty() && earlier.get(earlier.size() - 1) >= lowest) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean increasingWithin(final List<Long> keys) {
        for (int i = 1; i < keys.size(); i++) {
            if (keys.get(i) <= keys.get(i - 1)) {
                return false;
            }
        }
        return true;
    }

    private static List<Long> keys(final LincheckResult result) {
        if (!(result instanceof ValueResult value)) {
            return List.of();
        }
        if (value.getValue() instanceof Long key) {
            return List.of(key);
        }
        List<Long> keys = new ArrayList<>();
        if (value.getValue() instanceof Collection<?> batch) {
            batch.forEach(each -> keys.add((Long) each));
        }
        return keys;
    }
}
