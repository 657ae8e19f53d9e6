package org.snowkey.keygen.segment.runtime;

import org.jetbrains.kotlinx.lincheck.execution.ExecutionResult;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.verifier.Verifier;
import org.snowkey.keygen.modelcheck.IncreasingKeysVerifier;
import org.snowkey.keygen.runtime.JoinedOwnersVerifier;

/**
 * Accepts an execution of {@link SegmentRuntimeModelCheckTest} when no owner that joined a scope found it closed (an
 * operation returns a {@link String} saying so) and the keys of every generation of the scope, taken together, came
 * out once each and increasing in real time ({@link IncreasingKeysVerifier}): a key that a closed generation handed
 * out after the next generation had issued one lies below it.
 */
public final class JoinedSegmentOwnersVerifier implements Verifier {

    private final IncreasingKeysVerifier increasingKeys;

    public JoinedSegmentOwnersVerifier(final Class<?> sequentialSpecification) {
        increasingKeys = new IncreasingKeysVerifier(sequentialSpecification);
    }

    @Override
    public boolean verifyResults(final ExecutionScenario scenario, final ExecutionResult result) {
        return JoinedOwnersVerifier.noJoinedOwnerFoundItsGenerationClosed(result) && increasingKeys.verifyResults(scenario, result);
    }
}
