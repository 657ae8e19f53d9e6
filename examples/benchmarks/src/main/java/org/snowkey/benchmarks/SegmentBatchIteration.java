package org.snowkey.benchmarks;

import java.util.Collection;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.keygen.shardingsphere.SnowKeySegmentKeyGenerateAlgorithm;

/**
 * The floor under {@link SegmentBenchmark#batch()} through the SPI: iterating and unboxing one collection of 1,000 keys
 * that {@code generateKeys(ctx, 1000)} returned once, with no key taken. A batch that costs this plus about one
 * single-key call is one atomic step; a step per key would add 1,000 of them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SegmentBatchIteration {

    private Collection<? extends Comparable<?>> taken;

    private SegmentSource source;

    @Setup(Level.Iteration)
    public void takeOneBatch() {
        source = SegmentSource.create(SegmentSource.SNOWKEY_SEGMENT_SPI);
        SnowKeySegmentKeyGenerateAlgorithm algorithm = ((SegmentSource.SnowKeySegmentSpi) source).algorithm();
        taken = algorithm.generateKeys(IdSource.CONTEXT, BurstBenchmark.BATCH);
    }

    @TearDown(Level.Iteration)
    public void close() {
        source.close();
        SegmentRuntime.get().closeAll();
    }

    @Benchmark
    public long iterateOnly() {
        return IdSource.sum(taken);
    }
}
