package org.snowkey.keygen.modelcheck;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.jetbrains.kotlinx.lincheck.execution.ExecutionResult;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.kotlinx.lincheck.execution.HBClock;
import org.jetbrains.kotlinx.lincheck.execution.ResultWithClock;
import org.jetbrains.kotlinx.lincheck.util.LincheckResult;
import org.jetbrains.kotlinx.lincheck.util.ValueResult;
import org.jetbrains.lincheck.datastructures.verifier.Verifier;

/**
 * Accepts an execution when no id was returned twice (across all streams) and the ids of each stream strictly
 * increase in real-time order: when an operation finished before another started, every id of the later one is
 * above every id of the earlier one, if both drew from the same stream; within one batch ids increase too.
 * Operations return {@link StreamIds}; anything else (a failure to issue, a void operation) carries no id.
 *
 * <p>Real-time order comes from Lincheck's happens-before clocks: the clock of an operation at its start counts,
 * for each thread, the operations of that thread that had completed. Operations before the parallel part precede
 * all of it, operations after it follow all of it.
 */
public final class IncreasingIdsPerStreamVerifier implements Verifier {

    public IncreasingIdsPerStreamVerifier(final Class<?> sequentialSpecification) {
        // Lincheck instantiates verifiers with the sequential specification; uniqueness and order need none.
    }

    @Override
    public boolean verifyResults(final ExecutionScenario scenario, final ExecutionResult result) {
        return failure(result) == null;
    }

    /** Why the execution is rejected, or null when it is accepted. */
    static String failure(final ExecutionResult result) {
        List<Issued> all = new ArrayList<>();
        int order = 0;
        for (LincheckResult each : result.getInitResults()) {
            add(all, each, Phase.INIT, order++, -1, -1, null);
        }
        List<List<ResultWithClock>> parallel = result.getParallelResultsWithClock();
        for (int thread = 0; thread < parallel.size(); thread++) {
            List<ResultWithClock> operations = parallel.get(thread);
            for (int index = 0; index < operations.size(); index++) {
                add(all, operations.get(index).getResult(), Phase.PARALLEL, 0, thread, index, operations.get(index).getClockOnStart());
            }
        }
        order = 0;
        for (LincheckResult each : result.getPostResults()) {
            add(all, each, Phase.POST, order++, -1, -1, null);
        }
        Set<Long> seen = new HashSet<>();
        for (Issued each : all) {
            for (int i = 0; i < each.ids.ids().size(); i++) {
                long id = each.ids.ids().get(i);
                if (!seen.add(id)) {
                    return "id " + id + " issued twice";
                }
                if (i > 0 && id <= each.ids.ids().get(i - 1)) {
                    return "a batch of " + each.ids.stream() + " does not increase: " + each.ids.ids();
                }
            }
        }
        for (Issued earlier : all) {
            for (Issued later : all) {
                if (earlier != later && earlier.ids.stream().equals(later.ids.stream()) && earlier.finishedBeforeStartOf(later)
                        && later.min() <= earlier.max()) {
                    return "stream " + earlier.ids.stream() + " went back: " + earlier.ids.ids() + " then, strictly later, " + later.ids.ids();
                }
            }
        }
        return null;
    }

    private static void add(final List<Issued> all, final LincheckResult result, final Phase phase, final int order, final int thread,
                            final int index, final HBClock clockOnStart) {
        if (result instanceof ValueResult value && value.getValue() instanceof StreamIds ids && !ids.ids().isEmpty()) {
            all.add(new Issued(ids, phase, order, thread, index, clockOnStart));
        }
    }

    private enum Phase { INIT, PARALLEL, POST }

    private record Issued(StreamIds ids, Phase phase, int order, int thread, int index, HBClock clockOnStart) {

        long min() {
            return ids.ids().stream().mapToLong(Long::longValue).min().orElseThrow();
        }

        long max() {
            return ids.ids().stream().mapToLong(Long::longValue).max().orElseThrow();
        }

        boolean finishedBeforeStartOf(final Issued later) {
            if (phase != later.phase) {
                return phase.ordinal() < later.phase.ordinal();
            }
            if (phase != Phase.PARALLEL) {
                return order < later.order;
            }
            // The later operation started after this one completed: its start clock counts this one among its thread's.
            return later.clockOnStart.get(thread) > index;
        }
    }
}
