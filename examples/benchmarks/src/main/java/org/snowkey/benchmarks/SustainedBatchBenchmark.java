package org.snowkey.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;

/**
 * Batches of 1,000 back to back with no idle time, one thread, fresh generator per iteration (empty time
 * cache): the cost of a batch once every generator runs at its layout's cap. Shown for completeness next to
 * {@link BurstBenchmark#batches()}: here every contender is bounded by ids per millisecond, not by the call.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SustainedBatchBenchmark extends FreshGeneratorPerIteration {

    @Benchmark
    public long batchSustained() {
        return source.nextIds(BurstBenchmark.BATCH);
    }
}
