package org.snowkey.benchmarks;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.snowkey.keygen.shardingsphere.SnowKeySegmentKeyGenerateAlgorithm;

/**
 * That a batch of 1,000 costs one atomic step, measured: {@link #getAndAdd()} is the yardstick, one
 * uncontended {@code AtomicLong.getAndAdd}, the step a segment's cursor takes per key or per batch;
 * {@link #spiBatchTakeOnly()} takes 1,000 keys through {@code SNOWKEY_SEGMENT}'s {@code generateKeys(ctx, 1000)} without
 * reading them, from ranges large enough that moving to the next range does not count. Taken key by key it would cost at least 1,000 steps; taken in one step, about one step plus the batch
 * object. (Reading the keys is a separate, per-key cost: {@link SegmentBenchmark#batch()}.)
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SegmentStepCost {

    /**
     * Ranges of 1,000,000,000 keys: a million batches each, so what is measured is the batch, not moving to the next
     * range (with ranges of 100,000 that came every 100 batches and, amortised, cost more than the batch itself).
     */
    static final long RANGE = 1_000_000_000L;

    private final AtomicLong cursor = new AtomicLong();

    private SegmentSource source;

    private SnowKeySegmentKeyGenerateAlgorithm algorithm;

    @Setup(Level.Iteration)
    public void freshSequence() {
        SegmentSource.SnowKeySegmentSpi spi = new SegmentSource.SnowKeySegmentSpi(RANGE);
        source = spi;
        algorithm = spi.algorithm();
    }

    @TearDown(Level.Iteration)
    public void closeSequence() {
        source.close();
    }

    @Benchmark
    public long getAndAdd() {
        return cursor.getAndAdd(1);
    }

    @Benchmark
    public int spiBatchTakeOnly() {
        return algorithm.generateKeys(IdSource.CONTEXT, BurstBenchmark.BATCH).size();
    }
}
