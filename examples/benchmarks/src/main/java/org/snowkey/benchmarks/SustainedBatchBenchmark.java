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
 * Batches of 1,000 back to back with no idle time, one thread, fresh generator per iteration (empty time
 * cache): the cost of a batch once every generator runs at its layout's cap. Shown for completeness next to
 * {@link BurstBenchmark#batches()}: here every contender is bounded by ids per millisecond, not by the call.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SustainedBatchBenchmark {

    @Param({IdSource.SNOWKEY_SPI_13, IdSource.SNOWKEY_CORE_13, IdSource.SNOWKEY_SPI_10, IdSource.SNOWKEY_CORE_10,
            IdSource.SS_SNOWFLAKE, IdSource.COSID, IdSource.HUTOOL})
    public String generator;

    private IdSource source;

    @Setup(Level.Iteration)
    public void freshGenerator() {
        source = IdSource.create(generator);
    }

    @TearDown(Level.Iteration)
    public void closeGenerator() {
        source.close();
    }

    @Benchmark
    public long batchSustained() {
        return source.nextIds(BurstBenchmark.BATCH);
    }
}
