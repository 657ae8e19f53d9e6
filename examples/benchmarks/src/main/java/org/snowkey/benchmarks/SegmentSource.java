package org.snowkey.benchmarks;

import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import me.ahoo.cosid.segment.IdSegmentDistributor;
import me.ahoo.cosid.segment.SegmentChainId;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.segment.SegmentPropertyNames;
import org.snowkey.keygen.segment.SegmentSequence;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.keygen.shardingsphere.SnowKeySegmentKeyGenerateAlgorithm;

/**
 * The contenders of the segment comparison ({@link SegmentBenchmark}): SnowKey's {@link SegmentSequence} and CosId's
 * {@link SegmentChainId}, each over an in-memory allocator handing out ranges of {@value #STEP} keys, so that the
 * allocator is not what is measured (at 100M ids/s that is 1,000 allocations a second, each one atomic add).
 */
public abstract class SegmentSource extends IdSource {

    public static final String SNOWKEY_SEGMENT = "snowkey-segment";

    public static final String SNOWKEY_SEGMENT_SPI = "snowkey-segment-spi";

    public static final String COSID_SEGMENT_CHAIN = "cosid-segment-chain";

    public static final long STEP = 100_000;

    public static SegmentSource create(final String name) {
        return switch (name) {
            case SNOWKEY_SEGMENT -> new SnowKeySegment();
            case SNOWKEY_SEGMENT_SPI -> new SnowKeySegmentSpi();
            case COSID_SEGMENT_CHAIN -> new CosIdSegmentChain();
            default -> throw new IllegalArgumentException("unknown segment contender " + name + ", known: " + SNOWKEY_SEGMENT + ", " + SNOWKEY_SEGMENT_SPI + ", "
                    + COSID_SEGMENT_CHAIN);
        };
    }

    /**
     * SnowKey's core: a {@link SegmentSequence} with the default settings except a fixed step (min = max = {@value #STEP}),
     * fetching in the background on its own thread as it will in production (next range fetched at 10% used).
     */
    static final class SnowKeySegment extends SegmentSource {

        private final ExecutorService fetcher = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "snowkey-segment-fetch");
            thread.setDaemon(true);
            return thread;
        });

        private final SegmentSequence sequence;

        SnowKeySegment() {
            SegmentSettings defaults = SegmentSettings.defaults();
            SegmentSettings settings = new SegmentSettings(STEP, STEP, defaults.targetLifetimeMillis(), defaults.prefetchPercent(), defaults.fetchTimeoutMillis());
            sequence = new SegmentSequence("bench_db.t_order", new CountingRangeAllocator(), settings, WallClock.system(), fetcher);
        }

        @Override
        public long nextId() {
            return sequence.nextId();
        }

        /** One {@code nextIds(count)}, its keys read as ShardingSphere reads a {@code generateKeys} collection: iterated, each {@code Long} unboxed. */
        @Override
        public long nextIds(final int count) {
            return sum(sequence.nextIds(count));
        }

        @Override
        public void close() {
            sequence.close();
            fetcher.shutdownNow();
        }
    }

    /**
     * SnowKey through ShardingSphere 5.5's SPI, as ShardingSphere calls it: {@code SNOWKEY_SEGMENT}'s
     * {@code generateKeys(ctx, n)} for the logic table of {@link IdSource#CONTEXT}, every key of the returned collection
     * iterated and unboxed (also for n = 1). Same step and defaults as {@link SnowKeySegment}, the same kind of
     * in-memory allocator ({@link BenchmarkSegmentAllocatorProvider}), and the runtime's own fetch threads. Each
     * contender starts from an empty segment runtime, so its scope and sequence are fresh.
     */
    static final class SnowKeySegmentSpi extends SegmentSource {

        private final SnowKeySegmentKeyGenerateAlgorithm algorithm = new SnowKeySegmentKeyGenerateAlgorithm();

        SnowKeySegmentSpi() {
            this(STEP);
        }

        /** @param step the fixed range size */
        SnowKeySegmentSpi(final long step) {
            SegmentRuntime.get().closeAll();
            Properties props = new Properties();
            props.setProperty(SegmentPropertyNames.ALLOCATOR, BenchmarkSegmentAllocatorProvider.NAME);
            props.setProperty(SegmentPropertyNames.STEP_MIN, String.valueOf(step));
            props.setProperty(SegmentPropertyNames.STEP_MAX, String.valueOf(step));
            algorithm.init(props);
        }

        SnowKeySegmentKeyGenerateAlgorithm algorithm() {
            return algorithm;
        }

        @Override
        public long nextId() {
            return sum(algorithm.generateKeys(CONTEXT, 1));
        }

        @Override
        public long nextIds(final int count) {
            return sum(algorithm.generateKeys(CONTEXT, count));
        }

        @Override
        public void close() {
            SegmentRuntime.get().closeAll();
        }
    }

    /**
     * CosId 2.13.3 {@code SegmentChainId} with its defaults (segments live forever, safe distance 2, the shared
     * default prefetch worker) over {@code IdSegmentDistributor.Atomic} with the same step. It has no batch call:
     * a batch is a loop ({@link IdSource#nextIds(int)}).
     */
    static final class CosIdSegmentChain extends SegmentSource {

        private final SegmentChainId chain = new SegmentChainId(new IdSegmentDistributor.Atomic(STEP));

        @Override
        public long nextId() {
            return chain.generate();
        }
    }
}
