package org.snowkey.spring;

import java.util.List;
import java.util.function.Supplier;

import org.snowkey.keygen.generator.StreamNames;
import org.snowkey.keygen.segment.SegmentSequence;
import org.snowkey.keygen.segment.SegmentStatus;
import org.snowkey.keygen.segment.runtime.SegmentPlan;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.keygen.segment.runtime.SegmentScope;

/**
 * Segment keys for application code: dense, positive, below 2^53, strictly increasing per sequence in this JVM,
 * unique across every process that takes ranges from the same allocator. It issues from the same scope as every
 * ShardingSphere {@code SNOWKEY_SEGMENT} key generator with the same settings in this JVM (they inherit
 * {@code snowkey.segment.*}): one allocator, one sequence per key, so {@code sequence("orders.t_order")} and INSERTs
 * into that table never hand out the same key. With {@code snowkey.segment.key} those INSERTs take that one key for
 * every table instead: their sequence here is {@code sequence(<snowkey.segment.key>)}, and a table's own
 * {@code <database>.<table>} is another counter, which would repeat their keys.
 *
 * <p>The bean is one owner of the scope: the scope (its connection pool or ZooKeeper client) closes when the last
 * owner (this bean, ShardingSphere contexts) leaves; what is left of its ranges is a gap, never reused.
 */
public final class SnowKeySegments extends ScopeOwner {

    /** The longest sequence key the allocators store (their key column and node names). */
    private static final int MAX_KEY_LENGTH = 191;

    private final SegmentRuntime runtime;

    /** Plans the scope when the bean is first used; null once joined. */
    private Supplier<SegmentPlan> plan;

    private volatile SegmentScope scope;

    private SnowKeySegments(final SegmentRuntime runtime, final Object owner, final Supplier<SegmentPlan> plan) {
        super(owner, "SnowKeySegments", false);
        this.runtime = runtime;
        this.plan = plan;
    }

    /**
     * Joins the plan's scope. Nothing is fetched yet (no sequence key is known): the first key of each sequence fetches
     * its first range, and an unreachable allocator fails that call after {@code snowkey.segment.fetch-timeout}.
     */
    public static SnowKeySegments open(final SegmentRuntime runtime, final SegmentPlan plan) {
        SnowKeySegments result = new SnowKeySegments(runtime, new Object(), () -> plan);
        result.scope();
        return result;
    }

    /**
     * A bean that plans and joins its scope when first used: by then ShardingSphere may have started and shown its mode,
     * which can decide the store (a Cluster mode namespace), so that the bean and the key generators inheriting its
     * settings count on one store.
     */
    public static SnowKeySegments openOnFirstUse(final SegmentRuntime runtime, final Supplier<SegmentPlan> plan) {
        return new SnowKeySegments(runtime, new Object(), plan);
    }

    private SegmentScope scope() {
        SegmentScope current = scope;
        return current != null ? current : join();
    }

    private synchronized SegmentScope join() {
        if (scope == null) {
            requireOpen();
            scope = runtime.join(plan.get(), owner());
            joined();
            plan = null;
        }
        return scope;
    }

    /**
     * The sequence of a key, created on first use: {@code nextId()} for one key, {@code nextIds(n)} for n in one atomic
     * step where the current range allows. Keys are folded as ShardingSphere folds table names (case, quotes), so
     * {@code sequence("Orders.T_Order")} is the sequence of INSERTs into that logic table (without
     * {@code snowkey.segment.key}; with it, that key is the INSERTs' sequence). Hold on to the sequence for
     * hot paths.
     *
     * @throws IllegalArgumentException for a blank key or one longer than 191 characters
     * @throws IllegalStateException once the bean is closed
     */
    public SegmentSequence sequence(final String key) {
        requireOpen();
        String folded;
        try {
            folded = StreamNames.normalise(key);
        } catch (final IllegalArgumentException ex) {
            throw new IllegalArgumentException("a segment sequence key must not be blank", ex);
        }
        if (folded.length() > MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("a segment sequence key has at most " + MAX_KEY_LENGTH + " characters, not " + folded.length());
        }
        return scope().sequence(folded);
    }

    /** The statuses of the sequences of this bean's scope, ShardingSphere's included. */
    public List<SegmentStatus> statuses() {
        return scope().statuses();
    }

    /** Where the ranges come from, without secrets. */
    public String allocator() {
        return scope().allocator();
    }

    /** The scope this bean shares with ShardingSphere key generators of the same settings. */
    public String scopeKey() {
        return scope().scopeKey();
    }

    /** Leaves the scope; it closes if no ShardingSphere context uses it any more. */
    @Override
    void leave(final Object owner) {
        runtime.release(owner);
    }

    @Override
    public String toString() {
        SegmentScope current = scope;
        return "SnowKeySegments[" + (current == null ? "not used yet" : current.allocator()) + "]";
    }
}
