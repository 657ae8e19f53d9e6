package org.snowkey.keygen.modelcheck;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.jetbrains.kotlinx.lincheck.execution.ExecutionResult;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.kotlinx.lincheck.execution.ResultWithClock;
import org.jetbrains.kotlinx.lincheck.util.LincheckResult;
import org.jetbrains.kotlinx.lincheck.util.ValueResult;
import org.jetbrains.lincheck.datastructures.verifier.Verifier;

/**
 * Accepts an execution when no id was returned twice. SnowKey's promise is uniqueness, not a sequential
 * specification (ids depend on the clock), so linearizability against a sequential model is the wrong check.
 * Operations return a {@code Long} for one id or a collection of them for a batch; anything else (a failure to
 * issue, a void operation) carries no id.
 */
public final class UniqueIdsVerifier implements Verifier {

    public UniqueIdsVerifier(final Class<?> sequentialSpecification) {
        // Lincheck instantiates verifiers with the sequential specification; uniqueness needs none.
    }

    @Override
    public boolean verifyResults(final ExecutionScenario scenario, final ExecutionResult result) {
        List<LincheckResult> all = new ArrayList<>(result.getInitResults());
        for (List<ResultWithClock> thread : result.getParallelResultsWithClock()) {
            thread.forEach(each -> all.add(each.getResult()));
        }
        all.addAll(result.getPostResults());
        Set<Long> seen = new HashSet<>();
        for (LincheckResult each : all) {
            if (each instanceof ValueResult value) {
                for (Long id : ids(value.getValue())) {
                    if (!seen.add(id)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static Collection<Long> ids(final Object value) {
        if (value instanceof Long id) {
            return List.of(id);
        }
        if (value instanceof Collection<?> batch) {
            List<Long> result = new ArrayList<>();
            batch.forEach(each -> result.add((Long) each));
            return result;
        }
        return List.of();
    }
}
