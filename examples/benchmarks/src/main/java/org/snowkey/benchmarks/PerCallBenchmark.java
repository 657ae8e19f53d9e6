package org.snowkey.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;

/**
 * Target 1: one id per call, sustained: throughput over 1 or 2 threads sharing one generator. (The latency of
 * one call is measured by {@link LatencyReport}: JMH's sample mode aliases with the generators' 2^S-id cycle.)
 * Every iteration gets a fresh generator ({@link FreshGeneratorPerIteration}), so the rate is the sustained one.
 */
public class PerCallBenchmark extends FreshGeneratorPerIteration {

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public long nextId() {
        return source.nextId();
    }
}
