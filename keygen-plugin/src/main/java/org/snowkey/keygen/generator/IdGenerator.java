package org.snowkey.keygen.generator;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.layout.DecodedId;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.WorkerLease;

/**
 * The generator of one scope: one worker lease and the named sequence streams issuing on it.
 *
 * <p>Every stream draws the timestamp and high sequence of its ids from the generator's one {@link IdSpace} per
 * lease grant, and keeps only the low L bits as its own cycle: ids are unique across all streams of the generator,
 * and across the cluster, because they carry the leased worker id and stay inside the lease's timestamp range.
 * The runtime keeps one generator per worker lease, so every key generator and table on a worker id shares it.
 */
public final class IdGenerator implements AutoCloseable {

    /** The stream that application code gets when it names none, and that {@code sequence-scope: global} uses. */
    public static final String DEFAULT_STREAM = "global";

    private final IdLayout layout;

    private final WorkerLease lease;

    private final IssuePolicy policy;

    private final IdSpace idSpace;

    private final Map<String, SequenceStream> streams = new ConcurrentHashMap<>();

    /** Set when {@link #close} starts: from then on nothing issues from this generator, and its holders join anew. */
    private volatile boolean ended;

    /**
     * @param layout the id layout
     * @param lease where the worker id comes from
     * @param clock the wall clock
     * @param clockRules the tolerance for a clock that moved back and the time cache cap
     */
    public IdGenerator(final IdLayout layout, final WorkerLease lease, final WallClock clock, final ClockRules clockRules) {
        if (!layout.hasHighSequenceBits()) {
            throw new IllegalArgumentException("sequence-low-bits must be below the sequence bits (22 - worker-id-bits), was "
                    + layout.sequenceLowBits() + " of " + layout.sequenceBits() + ": every worker id could issue only one id per millisecond");
        }
        lease.requireLayout(layout);
        this.layout = layout;
        this.lease = lease;
        this.policy = new IssuePolicy(layout, clock, clockRules);
        this.idSpace = new IdSpace(lease, policy);
    }

    /**
     * The stream of that name, created on first use. Names are compared the way ShardingSphere compares table names
     * (case and identifier quotes ignored, see {@link StreamNames}), so that no two spellings of one table can be two
     * streams issuing the same ids.
     */
    public SequenceStream stream(final String name) {
        SequenceStream stream = name == null ? null : streams.get(name);
        if (stream != null) {
            return stream;
        }
        return streams.computeIfAbsent(StreamNames.normalise(name), key -> new SequenceStream(key, idSpace, layout));
    }

    /** The next id of the default stream. */
    public long nextId() {
        return stream(DEFAULT_STREAM).nextId();
    }

    /** The next {@code count} ids of the default stream, in one atomic step. */
    public IdBatch nextIds(final int count) {
        return stream(DEFAULT_STREAM).nextIds(count);
    }

    public DecodedId decode(final long id) {
        return layout.decode(id);
    }

    public IdLayout layout() {
        return layout;
    }

    public WorkerLease lease() {
        return lease;
    }

    /** The grant in force, acquiring it if needed (start-up code calls this to fail early). */
    public LeaseGrant currentGrant() {
        return lease.currentGrant();
    }

    /** Waits for the clock that moved back, counted since start. */
    public long clockBackWaits() {
        return policy.clockBackWaits();
    }

    /** Ids issued by all streams since start. */
    public long idsIssued() {
        return streams.values().stream().mapToLong(SequenceStream::idsIssued).sum();
    }

    /** The time cache of the worker id, in ms: how much idle time a burst can spend at once. */
    public long timeCacheMillis() {
        return idSpace.timeCacheMillis();
    }

    /** The streams created so far, by name. */
    public Map<String, SequenceStream> streams() {
        return Map.copyOf(streams);
    }

    /** Releases the lease with the exact high-water mark of the id space. */
    @Override
    public void close() {
        ended = true;
        lease.close();
    }

    /**
     * True once this generation has been closed (its last owner left, or the runtime closed it): it issues no id any
     * more, and whoever cached it must join its scope again for the next generation.
     */
    public boolean hasEnded() {
        return ended;
    }

    @Override
    public String toString() {
        return "IdGenerator[" + layout + " on " + lease.describe() + "]";
    }
}
