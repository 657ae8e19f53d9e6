package org.snowkey.keygen.runtime;

/**
 * What a generation of a scope holds, and how {@link Scopes} opens, matches and closes it: for the snowflake an
 * {@code IdGenerator} over a worker-id lease, for the segment generator an open allocator with its sequences.
 *
 * @param <P> the plan a scope is joined with (validated, not connected)
 * @param <R> what an open generation holds
 */
public interface ScopeResources<P, R> {

    /** Which generation the plan joins: plans with equal keys share one. */
    String scopeKey(P plan);

    /** Opens what a new generation holds; I/O happens here, outside every lock, by the one thread that opens. */
    R open(P plan);

    /**
     * Checks a plan joining an open generation against the plan that opened it.
     *
     * @throws IllegalStateException when the two cannot share the generation
     */
    void checkJoin(String scopeKey, P opened, P joining);

    /** Closes what an ended generation held (I/O, outside every lock); a failure is logged by the caller. */
    void close(String scopeKey, R resource);
}
