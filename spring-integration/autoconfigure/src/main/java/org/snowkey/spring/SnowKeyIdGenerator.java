package org.snowkey.spring;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.snowkey.keygen.generator.IdBatch;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.generator.SequenceStream;
import org.snowkey.keygen.layout.DecodedId;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseStatus;
import org.snowkey.keygen.runtime.SnowflakePlan;
import org.snowkey.keygen.runtime.SnowflakeRuntime;

/**
 * SnowKey ids for application code. It issues from the same generator as every ShardingSphere
 * {@code IMPROVED_SNOWFLAKE} key generator of its scope (registry, namespace, pool) in this JVM: one worker lease,
 * one set of named streams. A table's stream is named {@code <database>.<table>} in lower case.
 *
 * <p>The bean is one owner of the scope: the lease is released, with the exact high-water mark, when the last
 * owner (this bean, ShardingSphere contexts) is closed.
 */
public final class SnowKeyIdGenerator extends ScopeOwner {

    private final SnowflakeRuntime runtime;

    private final String scopeKey;

    private final IdGenerator generator;

    /**
     * @param owner this bean's membership in the scope, registered before the bean exists so a failed start can
     *              leave again
     */
    private SnowKeyIdGenerator(final SnowflakeRuntime runtime, final Object owner, final String scopeKey, final IdGenerator generator) {
        super(owner, "SnowKeyIdGenerator", true);
        this.runtime = runtime;
        this.scopeKey = scopeKey;
        this.generator = generator;
    }

    /**
     * Joins the plan's scope and acquires its lease now, so that a missing lease fails start-up rather than the
     * first id. On failure the scope is left as it was found.
     */
    public static SnowKeyIdGenerator open(final SnowflakeRuntime runtime, final SnowflakePlan plan) {
        Object owner = new Object();
        try {
            IdGenerator generator = runtime.generatorReleasedByOwner(plan, owner);
            generator.currentGrant();
            return new SnowKeyIdGenerator(runtime, owner, plan.scopeKey(), generator);
        } catch (final RuntimeException ex) {
            runtime.release(owner);
            throw ex;
        }
    }

    /** The next id of the default stream ({@value IdGenerator#DEFAULT_STREAM}). */
    public long nextId() {
        return generator.nextId();
    }

    /** The next {@code count} ids of the default stream, reserved in one atomic step. */
    public IdBatch nextIds(final int count) {
        return generator.nextIds(count);
    }

    /** A named stream: its ids are unique and increasing within the stream across the cluster. */
    public SequenceStream stream(final String name) {
        return generator.stream(name);
    }

    /** The parts of an id issued with this generator's layout. */
    public DecodedId decode(final long id) {
        return generator.decode(id);
    }

    public IdLayout layout() {
        return generator.layout();
    }

    /** The lease as health checks see it, without acquiring anything. */
    public LeaseStatus leaseStatus() {
        return generator.lease().status();
    }

    /**
     * The worker ids the scope's generator issues on now, ascending: its lease's, and the extra ones of the pool it
     * leased while its calls kept waiting for the clock (docs/design.md, "Holdings: more worker ids for a hot
     * generator"). Before the first id it is the lease's own, the one the first id will carry; empty while the lease
     * holds no worker id, since nothing is issued then.
     */
    public List<Integer> workerIds() {
        LeaseStatus status = leaseStatus();
        if (!status.healthy()) {
            return List.of();
        }
        int[] holdings = generator.workerIds();
        return holdings.length == 0 ? List.of(status.workerId()) : Arrays.stream(holdings).boxed().toList();
    }

    /** Ids issued by every stream of the scope, ShardingSphere's included. */
    public long idsIssued() {
        return generator.idsIssued();
    }

    /** The largest time cache of any stream, in ms. */
    public long timeCacheMillis() {
        return generator.timeCacheMillis();
    }

    public long clockBackWaits() {
        return generator.clockBackWaits();
    }

    /** The streams of the scope so far, by name. */
    public Map<String, SequenceStream> streams() {
        return generator.streams();
    }

    /** The scope this bean shares with ShardingSphere key generators. */
    public String scopeKey() {
        return scopeKey;
    }

    /** The shared generator of the scope. */
    public IdGenerator generator() {
        return generator;
    }

    /** Leaves the scope; the lease is released if no ShardingSphere context uses it any more. */
    @Override
    void leave(final Object owner) {
        runtime.release(owner);
    }

    @Override
    public String toString() {
        return "SnowKeyIdGenerator[" + generator + "]";
    }
}
