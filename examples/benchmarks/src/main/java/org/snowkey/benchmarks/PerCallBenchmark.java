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
 * Target 1: one id per call, sustained: throughput over 1 or 2 threads sharing one generator. (The latency of
 * one call is measured by {@link LatencyReport}: JMH's sample mode aliases with the generators' 2^S-id cycle.)
 *
 * <p>Every iteration gets a fresh generator, created right before it is measured: SnowKey's time cache is then
 * empty, so the rate measured is the sustained one, bounded by the layout's cap of 2^S ids per ms (plus the
 * few milliseconds between the set-up and the start of the measurement, under 0.5% of a 2 s iteration).
 */
@State(Scope.Benchmark)
public class PerCallBenchmark {

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
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public long nextId() {
        return source.nextId();
    }
}
