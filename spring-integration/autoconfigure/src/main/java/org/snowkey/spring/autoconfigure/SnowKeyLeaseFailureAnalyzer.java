package org.snowkey.spring.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Says what to check when no worker id could be leased during start-up. */
class SnowKeyLeaseFailureAnalyzer extends AbstractFailureAnalyzer<SnowKeyLeaseException> {

    @Override
    protected FailureAnalysis analyze(final Throwable rootFailure, final SnowKeyLeaseException cause) {
        return new FailureAnalysis(cause.getMessage(), "Check that the lease registry is reachable from this host (snowkey.zookeeper.server-lists or "
                + "snowkey.jdbc.url) and that the pool (snowkey.lease.pool) has a free worker id; start-up waits "
                + "snowkey.lease.acquire-timeout for one.", cause);
    }
}
