package org.snowkey.keygen.segment.runtime;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.keygen.segment.SegmentSequence;
import org.snowkey.keygen.segment.SegmentStatus;

/**
 * One allocator and the sequences of its keys, shared by every key generator of the JVM with the same plan
 * ({@link SegmentPlan#scopeKey()}): one sequence per key, so the keys of a table issued here strictly increase.
 *
 * <p>Closing is not a uniqueness matter, unlike a worker-id scope: the ranges a closed scope held are never handed out
 * again, and a scope opened later for the same plan allocates fresh ranges above them. What is left of a closed scope's
 * ranges is a gap.
 */
public final class SegmentScope {

    private final String scopeKey;

    private final SegmentPlan plan;

    private final OpenAllocator allocator;

    private final WallClock clock;

    private final Executor fetchExecutor;

    private final Map<String, SegmentSequence> sequences = new ConcurrentHashMap<>();

    /** Told of each new sequence (the runtime's listeners, each guarded there); called once per sequence, never per key. */
    private final SegmentSequenceListener listener;

    private volatile boolean closed;

    SegmentScope(final SegmentPlan plan, final OpenAllocator allocator, final WallClock clock, final Executor fetchExecutor, final SegmentSequenceListener listener) {
        this.listener = listener;
        this.scopeKey = plan.scopeKey();
        this.plan = plan;
        this.allocator = allocator;
        this.clock = clock;
        this.fetchExecutor = fetchExecutor;
    }

    public String scopeKey() {
        return scopeKey;
    }

    /** The plan's {@code segment-key}: one key for every table, or a key per logic table. */
    public SegmentKey segmentKey() {
        return plan.segmentKey();
    }

    /** Where the ranges come from, without secrets. */
    public String allocator() {
        return allocator.describe();
    }

    /**
     * The sequence of a key (already folded by the caller), created on first use; it fetches its first range when
     * the first key is asked for.
     *
     * @throws RangeUnavailableException once the scope is closed
     */
    public SegmentSequence sequence(final String key) {
        SegmentSequence sequence = sequences.get(key);
        if (sequence == null) {
            if (closed) {
                throw closedException();
            }
            boolean[] created = new boolean[1];
            sequence = sequences.computeIfAbsent(key, each -> {
                created[0] = true;
                return new SegmentSequence(each, allocator, plan.sequence(), clock, fetchExecutor);
            });
            // close() may have set the flag after the check above and walked the map before this sequence was in it: it
            // would never be closed, and its fetches would retry for ever against the closed pool or client. Put first,
            // then read the flag (close() writes it, then walks): one of the two sees the other.
            if (closed) {
                sequence.close();
                throw closedException();
            }
            if (created[0]) {
                // Outside the map's lock, once the sequence is in place.
                listener.created(this, sequence);
            }
        }
        return sequence;
    }

    /** The sequences created so far, a live read-only view. */
    public Collection<SegmentSequence> sequences() {
        return Collections.unmodifiableCollection(sequences.values());
    }

    /** Whether the scope's last owner has left: its sequences issue nothing more from the allocator. */
    public boolean isClosed() {
        return closed;
    }

    private RangeUnavailableException closedException() {
        return new RangeUnavailableException("SnowKey segment scope " + allocator.describe() + " is closed (its ShardingSphere context was closed)");
    }

    public List<SegmentStatus> statuses() {
        List<SegmentStatus> result = new ArrayList<>();
        sequences.values().forEach(each -> result.add(each.status()));
        return result;
    }

    /** Stops every sequence, then closes the allocator; fetches in flight fail and are not retried. */
    void close() {
        closed = true;
        sequences.values().forEach(SegmentSequence::close);
        allocator.close();
    }
}
