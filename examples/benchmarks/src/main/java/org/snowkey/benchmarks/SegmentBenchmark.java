package org.snowkey.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Segment mode: SnowKey's {@code SegmentSequence}, the same through ShardingSphere's SPI
 * ({@code SNOWKEY_SEGMENT}'s {@code generateKeys(ctx, n)}, keys iterated and unboxed as ShardingSphere reads them) and
 * CosId's {@code SegmentChainId}, one thread, all over in-memory allocators with ranges of {@value SegmentSource#STEP}
 * keys. {@link SegmentStepCost} shows that a batch is one atomic step. {@link #nextId()} is one key
 * per call (ops/s = ids/s); {@link #batch()} is {@value BurstBenchmark#BATCH} keys, through {@code nextIds(1000)}
 * with every key iterated and unboxed for SnowKey, a loop of single calls for CosId (ops/s x 1,000 = ids/s).
 * Every key is consumed (summed). A fresh sequence per iteration, as in the other benchmarks.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SegmentBenchmark {

    @Param({SegmentSource.SNOWKEY_SEGMENT, SegmentSource.SNOWKEY_SEGMENT_SPI, SegmentSource.COSID_SEGMENT_CHAIN})
    public String generator;

    private SegmentSource source;

    @Setup(Level.Iteration)
    public void freshSequence() {
        source = SegmentSource.create(generator);
    }

    @TearDown(Level.Iteration)
    public void closeSequence() {
        source.close();
    }

    @Benchmark
    public long nextId() {
        return source.nextId();
    }

    @Benchmark
    public long batch() {
        return source.nextIds(BurstBenchmark.BATCH);
    }
}
