package org.snowkey.spring.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns a bad {@code snowkey.*} value into Spring Boot's "APPLICATION FAILED TO START" report. */
class SnowKeyFailureAnalyzer extends AbstractFailureAnalyzer<SnowKeyConfigurationException> {

    @Override
    protected FailureAnalysis analyze(final Throwable rootFailure, final SnowKeyConfigurationException cause) {
        return new FailureAnalysis(cause.getMessage(), "Correct '" + cause.property() + "' in the application's configuration.", cause);
    }
}
