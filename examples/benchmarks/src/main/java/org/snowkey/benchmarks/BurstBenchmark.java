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
 * Targets 2 and 3: 1,000,000 ids right after 2 s of idle time, single-shot, one thread. Once as 1,000,000
 * single calls, once as 1,000 batches of 1,000 ({@code generateKeys(ctx, 1000)} for the ShardingSphere
 * contenders, {@code nextIds(1000)} for SnowKey's core API, a loop for CosId and Hutool). Every id is read.
 *
 * <p>Before each shot the contender is created fresh, issues one id (so it has started) and then sleeps 2 s;
 * neither is timed.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class BurstBenchmark {

    public static final int IDS = 1_000_000;

    public static final int BATCH = 1_000;

    public static final long IDLE_MILLIS = 2_000;

    @Param({IdSource.SNOWKEY_SPI_13, IdSource.SNOWKEY_CORE_13, IdSource.SNOWKEY_SPI_10, IdSource.SNOWKEY_CORE_10,
            IdSource.SS_SNOWFLAKE, IdSource.COSID, IdSource.HUTOOL})
    public String generator;

    private IdSource source;

    @Setup(Level.Iteration)
    public void freshGeneratorThenIdle() throws InterruptedException {
        source = IdSource.create(generator);
        source.nextId();
        Thread.sleep(IDLE_MILLIS);
    }

    @TearDown(Level.Iteration)
    public void closeGenerator() {
        source.close();
    }

    @Benchmark
    public long burst() {
        IdSource current = source;
        long sum = 0;
        for (int i = 0; i < IDS; i++) {
            sum += current.nextId();
        }
        return sum;
    }

    @Benchmark
    public long batches() {
        IdSource current = source;
        long sum = 0;
        for (int i = 0; i < IDS / BATCH; i++) {
            sum += current.nextIds(BATCH);
        }
        return sum;
    }
}
