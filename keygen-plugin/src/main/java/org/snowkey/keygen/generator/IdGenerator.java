package org.snowkey.keygen.generator;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;

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

    /** Leases more worker ids of the pool while the generator runs at its cap; null with one worker id at most. */
    private final HoldingsGrowth growth;

    /** The streams by normalised name ({@link StreamNames}). */
    private final Map<String, SequenceStream> streams = new ConcurrentHashMap<>();

    /**
     * Every name {@link #stream} was asked for, as spelt, to its stream: a spelling not in normal form (upper case, quoted)
     * is normalised on its first call only, not on every id of the core API that names it.
     */
    private final Map<String, SequenceStream> streamsBySpelling = new ConcurrentHashMap<>();

    /** Set when {@link #close} starts: from then on nothing issues from this generator, and its holders join anew. */
    private volatile boolean ended;

    /**
     * A generator on one worker id (its lease's).
     *
     * @param layout the id layout
     * @param lease where the worker id comes from
     * @param clock the wall clock
     * @param clockRules the tolerance for a clock that moved back and the time cache cap
     */
    public IdGenerator(final IdLayout layout, final WorkerLease lease, final WallClock clock, final ClockRules clockRules) {
        this(layout, lease, clock, clockRules, 1);
    }

    /**
     * A generator that leases up to {@code maxWorkerIds} worker ids of its lease's pool while its calls keep waiting for
     * the clock (docs/design.md, "Holdings: more worker ids for a hot generator"); a lease without a pool (a static
     * worker id) never grows.
     *
     * @param maxWorkerIds 1 for the lease's worker id only
     */
    public IdGenerator(final IdLayout layout, final WorkerLease lease, final WallClock clock, final ClockRules clockRules, final int maxWorkerIds) {
        this(layout, lease, clock, clockRules, maxWorkerIds, maxWorkerIds > 1 && lease.opensSiblings() ? HoldingsGrowth.sharedThread() : null);
    }

    /**
     * @param growthThread runs the holdings' checks and closes dropped holdings; null for none: the checks run only when
     *                     called ({@link #growth()}) and dropped holdings close on the dropping thread
     */
    IdGenerator(final IdLayout layout, final WorkerLease lease, final WallClock clock, final ClockRules clockRules, final int maxWorkerIds,
                final ScheduledExecutorService growthThread) {
        if (!layout.hasHighSequenceBits()) {
            throw new IllegalArgumentException("sequence-low-bits must be below the sequence bits (22 - worker-id-bits), was "
                    + layout.sequenceLowBits() + " of " + layout.sequenceBits() + ": every worker id could issue only one id per millisecond");
        }
        if (maxWorkerIds < 1) {
            throw new IllegalArgumentException("a generator issues on at least one worker id, asked for at most " + maxWorkerIds);
        }
        lease.requireLayout(layout);
        this.layout = layout;
        this.lease = lease;
        this.policy = new IssuePolicy(layout, clock, clockRules);
        this.idSpace = new IdSpace(lease, policy, growthThread != null ? growthThread : Runnable::run);
        if (maxWorkerIds > 1 && lease.opensSiblings()) {
            growth = new HoldingsGrowth(idSpace, maxWorkerIds, layout.workerIdCount());
            if (growthThread != null) {
                growth.start(growthThread);
            }
        } else {
            growth = null;
        }
    }

    /**
     * The stream of that name, created on first use. Names are compared the way ShardingSphere compares table names
     * (case and identifier quotes ignored, see {@link StreamNames}), so that no two spellings of one table can be two
     * streams issuing the same ids.
     */
    public SequenceStream stream(final String name) {
        SequenceStream stream = name == null ? null : streamsBySpelling.get(name);
        if (stream != null) {
            return stream;
        }
        stream = streams.computeIfAbsent(StreamNames.normalise(name), key -> new SequenceStream(key, idSpace));
        // Every spelling maps to the stream of its normal form, so a race between two first calls puts the same stream.
        streamsBySpelling.putIfAbsent(name, stream);
        return stream;
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

    /**
     * The worker ids the generator issues on now, its lease's and the extra ones it leased while hot, in the order
     * their ids interleave (by worker id); empty before the first id.
     */
    public int[] workerIds() {
        return idSpace.workerIds();
    }

    /** The holdings' checks, or null with one worker id at most. */
    HoldingsGrowth growth() {
        return growth;
    }

    /** The id space the streams draw from, for tests that change its holdings by hand (GeneratorTestAccess). */
    IdSpace idSpace() {
        return idSpace;
    }

    /** The streams created so far, by name. */
    public Map<String, SequenceStream> streams() {
        return Map.copyOf(streams);
    }

    /**
     * Releases every lease with the exact high-water mark of the id space: first the extra holdings (the counter moves
     * to the lease's own worker id), then the lease. A close that fails on an extra still closes the rest.
     */
    @Override
    public void close() {
        ended = true;
        if (growth != null) {
            growth.close();
        }
        RuntimeException failure = null;
        for (WorkerLease each : idSpace.close()) {
            try {
                each.close();
            } catch (final RuntimeException ex) {
                if (failure == null) {
                    failure = ex;
                } else {
                    failure.addSuppressed(ex);
                }
            }
        }
        try {
            lease.close();
        } catch (final RuntimeException ex) {
            if (failure != null) {
                ex.addSuppressed(failure);
            }
            throw ex;
        }
        if (failure != null) {
            throw failure;
        }
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
