package org.snowkey.keygen.runtime;

import java.util.ArrayList;
import java.util.List;

import org.jetbrains.kotlinx.lincheck.execution.ExecutionResult;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.kotlinx.lincheck.execution.ResultWithClock;
import org.jetbrains.kotlinx.lincheck.util.LincheckResult;
import org.jetbrains.kotlinx.lincheck.util.ValueResult;
import org.jetbrains.lincheck.datastructures.verifier.Verifier;
import org.snowkey.keygen.modelcheck.UniqueIdsVerifier;

/**
 * Accepts an execution of {@link RuntimeModelCheckTest} when no id came out twice ({@link UniqueIdsVerifier}) and
 * no owner that joined a scope got a closed generator (its operation returns a {@link String} saying so).
 */
public final class JoinedOwnersVerifier implements Verifier {

    private final UniqueIdsVerifier uniqueIds;

    public JoinedOwnersVerifier(final Class<?> sequentialSpecification) {
        uniqueIds = new UniqueIdsVerifier(sequentialSpecification);
    }

    @Override
    public boolean verifyResults(final ExecutionScenario scenario, final ExecutionResult result) {
        return noJoinedOwnerFoundItsGenerationClosed(result) && uniqueIds.verifyResults(scenario, result);
    }

    /** Whether no operation returned a {@link String}: the operations of these checks say so when a joined owner found its generation closed. */
    public static boolean noJoinedOwnerFoundItsGenerationClosed(final ExecutionResult result) {
        List<LincheckResult> all = new ArrayList<>(result.getInitResults());
        for (List<ResultWithClock> thread : result.getParallelResultsWithClock()) {
            thread.forEach(each -> all.add(each.getResult()));
        }
        all.addAll(result.getPostResults());
        for (LincheckResult each : all) {
            if (each instanceof ValueResult value && value.getValue() instanceof String) {
                return false;
            }
        }
        return true;
    }
}
