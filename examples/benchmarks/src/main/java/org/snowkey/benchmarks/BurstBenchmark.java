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
 * neither is timed. A holdings contender ({@link IdSource#growsHoldings}) keeps one generator for the trial instead,
 * grown before each shot ({@link HoldingsWarmUp}: at once after the first), its time cache spent, and then idle for the
 * same 2 s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class BurstBenchmark {

    public static final int IDS = 1_000_000;

    public static final int BATCH = 1_000;

    public static final long IDLE_MILLIS = 2_000;

    @Param({IdSource.SNOWKEY_SPI_HOLDINGS_13, IdSource.SNOWKEY_SPI_13, IdSource.SNOWKEY_CORE_13, IdSource.SNOWKEY_SPI_10, IdSource.SNOWKEY_CORE_10,
            IdSource.SS_SNOWFLAKE, IdSource.COSID, IdSource.HUTOOL})
    public String generator;

    private IdSource source;

    @Setup(Level.Trial)
    public void grownGenerator() {
        if (IdSource.growsHoldings(generator)) {
            source = IdSource.create(generator);
        }
    }

    @Setup(Level.Iteration)
    public void freshGeneratorThenIdle() throws InterruptedException {
        if (IdSource.growsHoldings(generator)) {
            // Grown again if it gave worker ids back meanwhile (after 30 s without a wait for the clock).
            HoldingsWarmUp.growAndReport(generator, source);
            // What the last shot left of the time cache is spent: every shot starts from the same 2 s of idleness.
            HoldingsWarmUp.spendTimeCache(source);
        } else {
            source = IdSource.create(generator);
            source.nextId();
        }
        Thread.sleep(IDLE_MILLIS);
    }

    @TearDown(Level.Iteration)
    public void closeGenerator() {
        if (!IdSource.growsHoldings(generator)) {
            source.close();
        }
    }

    @TearDown(Level.Trial)
    public void closeGrownGenerator() {
        if (IdSource.growsHoldings(generator)) {
            source.close();
        }
    }

    @Benchmark
    public long burst() {
        return source.singleCalls(IDS);
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
