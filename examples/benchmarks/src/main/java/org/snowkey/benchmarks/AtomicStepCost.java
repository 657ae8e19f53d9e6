package org.snowkey.benchmarks;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The yardstick for "a batch of 1,000 costs one atomic step" (issue 13): one uncontended {@code AtomicLong.getAndAdd},
 * the step a segment's cursor takes per key or per batch. A batch taken key by key would cost at least 1,000 of these;
 * {@link SegmentBenchmark#batch()} through the SPI is set against it in the summary. (Reading 1,000 taken keys on their
 * own is no floor: there the JIT keeps the {@code Long}s it removes when the batch and its reader compile together.)
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class AtomicStepCost {

    private final AtomicLong cursor = new AtomicLong();

    @Benchmark
    public long getAndAdd() {
        return cursor.getAndAdd(1);
    }
}
