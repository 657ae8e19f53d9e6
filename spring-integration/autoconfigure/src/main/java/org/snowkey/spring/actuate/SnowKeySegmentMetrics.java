package org.snowkey.spring.actuate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.snowkey.keygen.segment.SegmentSequence;
import org.snowkey.keygen.segment.SegmentStatus;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.keygen.segment.runtime.SegmentScope;
import org.snowkey.keygen.segment.runtime.SegmentSequenceListener;

/**
 * Meters of every segment sequence of the JVM (ShardingSphere's {@code SNOWKEY_SEGMENT} key generators and the
 * {@code SnowKeySegments} bean), tagged with the sequence {@code key}, read when scraped (nothing is counted on the key
 * path): {@code snowkey.segment.keys.issued}, {@code snowkey.segment.ranges.fetched} and
 * {@code snowkey.segment.fetch.failures} (counters), {@code snowkey.segment.runway} (seconds the keys in memory last at
 * the recent rate; +Inf while nothing is issued), {@code snowkey.segment.remaining}, {@code snowkey.segment.step} and
 * {@code snowkey.segment.fetch.latency} (of the last successful allocation) (gauges).
 *
 * <p>Sequences appear on the first INSERT into a table, long after meters are bound, so the binder listens to the
 * runtime for new sequences ({@link SegmentRuntime#addSequenceListener}) and registers their meters then. A key served
 * by several scopes (key generators with different settings) has one set of meters over all of them: counters add up
 * every sequence the key ever had while this binder lived (so they never go back), gauges read the live ones only.
 */
public class SnowKeySegmentMetrics implements MeterBinder, SegmentSequenceListener, AutoCloseable {

    private final SegmentRuntime runtime;

    private final Map<String, KeyMeters> keys = new ConcurrentHashMap<>();

    private final List<MeterRegistry> registries = new CopyOnWriteArrayList<>();

    private volatile boolean listening;

    public SnowKeySegmentMetrics(final SegmentRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public void bindTo(final MeterRegistry registry) {
        synchronized (this) {
            if (!listening) {
                // Listen first, then scan: a sequence created in between is seen twice, and tracked once.
                runtime.addSequenceListener(this);
                listening = true;
            }
            registries.add(registry);
            keys.values().forEach(each -> each.register(registry));
        }
        for (SegmentScope scope : runtime.scopes()) {
            for (SegmentSequence sequence : scope.sequences()) {
                created(scope, sequence);
            }
        }
    }

    /** A new sequence: tracked under its key, whose meters are registered on first sight. Once per sequence, never per key. */
    @Override
    public void created(final SegmentScope scope, final SegmentSequence sequence) {
        synchronized (this) {
            KeyMeters meters = keys.get(sequence.key());
            if (meters == null) {
                meters = new KeyMeters(sequence.key());
                keys.put(sequence.key(), meters);
                for (MeterRegistry each : registries) {
                    meters.register(each);
                }
            }
            meters.add(scope, sequence);
        }
    }

    /** Stops following new sequences; Spring calls it when the context closes. */
    @Override
    public void close() {
        synchronized (this) {
            runtime.removeSequenceListener(this);
            listening = false;
        }
    }

    /** The meters of one sequence key and the sequences behind them. */
    private static final class KeyMeters {

        private final String key;

        /** Every sequence of the key seen; added once per sequence. */
        private final List<Member> members = new CopyOnWriteArrayList<>();

        KeyMeters(final String key) {
            this.key = key;
        }

        void add(final SegmentScope scope, final SegmentSequence sequence) {
            for (Member each : members) {
                if (each.sequence() == sequence) {
                    return;
                }
            }
            members.add(new Member(scope, sequence));
        }

        void register(final MeterRegistry registry) {
            Tags tags = Tags.of("key", key);
            FunctionCounter.builder("snowkey.segment.keys.issued", this, each -> each.sum(member -> member.sequence().issued()))
                    .description("Segment keys issued").tags(tags).register(registry);
            FunctionCounter.builder("snowkey.segment.ranges.fetched", this, each -> each.sumOfStatus(SegmentStatus::rangesFetched))
                    .description("Ranges received from the allocator").tags(tags).register(registry);
            FunctionCounter.builder("snowkey.segment.fetch.failures", this, each -> each.sumOfStatus(SegmentStatus::fetchFailures))
                    .description("Allocator calls that failed (each is retried)").tags(tags).register(registry);
            TimeGauge.builder("snowkey.segment.runway", this, TimeUnit.SECONDS, each -> each.runwaySeconds())
                    .description("How long the keys in memory last at the recent issue rate: how long an allocator outage may last before inserts fail")
                    .tags(tags).register(registry);
            Gauge.builder("snowkey.segment.remaining", this, each -> each.live().stream().mapToDouble(SegmentSequence::remaining).sum())
                    .description("Keys in memory: the rest of the current range and the fetched next one").baseUnit("keys").tags(tags).register(registry);
            Gauge.builder("snowkey.segment.step", this, each -> each.liveStatuses().stream().mapToDouble(SegmentStatus::step).max().orElse(Double.NaN))
                    .description("Size of the range last asked for").baseUnit("keys").tags(tags).register(registry);
            TimeGauge.builder("snowkey.segment.fetch.latency", this, TimeUnit.NANOSECONDS,
                    each -> each.liveStatuses().stream().mapToDouble(SegmentStatus::lastFetchNanos).max().orElse(Double.NaN))
                    .description("How long the last successful range allocation took").tags(tags).register(registry);
        }

        private double sum(final ToDoubleFunction<Member> value) {
            return members.stream().mapToDouble(value).sum();
        }

        private double sumOfStatus(final ToDoubleFunction<SegmentStatus> value) {
            return members.stream().map(each -> each.sequence().status()).mapToDouble(value).sum();
        }

        private List<SegmentSequence> live() {
            List<SegmentSequence> result = new ArrayList<>();
            for (Member each : members) {
                if (!each.scope().isClosed()) {
                    result.add(each.sequence());
                }
            }
            return result;
        }

        private List<SegmentStatus> liveStatuses() {
            return live().stream().map(SegmentSequence::status).toList();
        }

        /** The shortest runway of the live sequences; NaN when none is live. */
        private double runwaySeconds() {
            return liveStatuses().stream().mapToDouble(SegmentStatus::runwaySeconds).min().orElse(Double.NaN);
        }
    }

    private record Member(SegmentScope scope, SegmentSequence sequence) {
    }
}
