package org.snowkey.spring.actuate;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.snowkey.keygen.config.Redactor;
import org.snowkey.keygen.generator.SequenceStream;
import org.snowkey.keygen.layout.DecodedId;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseStatus;
import org.snowkey.keygen.segment.SegmentStatus;
import org.snowkey.keygen.segment.runtime.SegmentScope;
import org.snowkey.spring.SnowKeyIdGenerator;

/** What the endpoint shows, as plain values: instants as ISO-8601 text so that any JSON mapper renders them alike. */
public final class SnowKeyDescriptors {

    private SnowKeyDescriptors() {
    }

    /** An epoch-ms instant as text, or null for "none" (-1). */
    static String instant(final long epochMillis) {
        return epochMillis < 0 ? null : Instant.ofEpochMilli(epochMillis).toString();
    }

    /**
     * Text from the lease backend (its registry, scope or last problem) as Actuator may show it: credentials of any URL
     * in it are stripped. Backends already describe themselves without secrets; this holds for any backend, whatever
     * URL shape was configured, since Actuator output is often readable by more people than the logs.
     */
    static String shown(final String text) {
        return Redactor.URLS_ONLY.clean(text);
    }

    /** A reserved ceiling as text: "none" when no registry bounds it. */
    static String ceiling(final long ceilingMillis) {
        return ceilingMillis == LeaseGrant.UNBOUNDED ? "none" : instant(ceilingMillis);
    }

    static Generator describe(final SnowKeyIdGenerator generator, final List<SegmentScope> segmentScopes) {
        LeaseStatus status = generator.leaseStatus();
        Map<String, Stream> streams = new TreeMap<>();
        for (Map.Entry<String, SequenceStream> each : generator.streams().entrySet()) {
            streams.put(each.getKey(), new Stream(each.getValue().idsIssued(), each.getValue().timeCacheMillis()));
        }
        IdLayout layout = generator.layout();
        return new Generator(shown(generator.scopeKey()), shown(status.registry()), status.pool(), status.workerId(), generator.workerIds(), status.healthy(),
                shown(status.problem()), instant(status.expiresAtMillis()), ceiling(status.ceilingMillis()), status.renewals(), status.renewalFailures(),
                generator.timeCacheMillis(), generator.idsIssued(), generator.clockBackWaits(),
                new Layout(layout.workerIdBits(), layout.sequenceBits(), layout.sequenceLowBits(), instant(layout.epochMillis()),
                        layout.sustainedIdsPerMillisecond()), streams, describeSegments(segmentScopes));
    }

    /** Every live segment scope and its sequences, ShardingSphere's and the bean's; scope keys and allocators without credentials. */
    static List<SegmentScopeView> describeSegments(final List<SegmentScope> scopes) {
        return scopes.stream().map(each -> new SegmentScopeView(shown(each.scopeKey()), shown(each.allocator()), each.segmentKey().shared(),
                SegmentHealth.sorted(each.statuses()).stream().map(SnowKeyDescriptors::describe).toList()))
                .sorted(Comparator.comparing(SegmentScopeView::scope)).toList();
    }

    private static SegmentSequenceView describe(final SegmentStatus status) {
        return new SegmentSequenceView(status.key(), status.step(), status.remaining(), SegmentHealth.round(status.keysPerSecond()),
                Double.isFinite(status.runwaySeconds()) ? SegmentHealth.round(status.runwaySeconds()) : null, status.rangesFetched(), status.fetchFailures(),
                SegmentHealth.millis(status.lastFetchNanos()), shown(status.lastFailure()), shown(status.stoppedBecause()));
    }

    static Decoded decode(final DecodedId decoded) {
        return new Decoded(decoded.id(), decoded.timestamp().toString(), decoded.workerId(), decoded.sequence());
    }

    /**
     * The generator of the scope, its lease and its streams.
     *
     * @param workerId  the worker id of the scope's own lease
     * @param workerIds every worker id the generator issues on now, its lease's and the extra ones it leased while hot
     */
    public record Generator(String scope, String registry, String pool, int workerId, List<Integer> workerIds, boolean leaseHealthy, String problem,
                            String leaseExpiresAt, String reservedCeiling, long renewals, long renewalFailures, long timeCacheMillis, long idsIssued, long clockBackWaits,
                            Layout layout, Map<String, Stream> streams, List<SegmentScopeView> segments) {
    }

    /**
     * A live segment scope: one allocator and the sequences of its keys.
     *
     * @param sharedKey the one key of every table ({@code segment-key}), or null for a key per logic table
     */
    public record SegmentScopeView(String scope, String allocator, String sharedKey, List<SegmentSequenceView> sequences) {
    }

    /**
     * One segment sequence.
     *
     * @param runwaySeconds null while nothing was issued recently (the runway is unbounded)
     * @param lastFailure   null while the allocator answers
     * @param stoppedBecause null unless the sequence stopped for good
     */
    public record SegmentSequenceView(String key, long step, long remaining, double keysPerSecond, Double runwaySeconds, long rangesFetched,
                                      long fetchFailures, double lastFetchMillis, String lastFailure, String stoppedBecause) {
    }

    /** The id layout; {@code idsPerMillisecond} is what the worker id issues over all its tables, {@code 2^(S-L)}. */
    public record Layout(int workerIdBits, int sequenceBits, int sequenceLowBits, String epoch, long idsPerMillisecond) {
    }

    /** One sequence stream. */
    public record Stream(long idsIssued, long timeCacheMillis) {
    }

    /** One decoded id. */
    public record Decoded(long id, String timestamp, int workerId, int sequence) {
    }
}
