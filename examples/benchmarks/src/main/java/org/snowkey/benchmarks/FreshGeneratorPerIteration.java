package org.snowkey.benchmarks;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Every contender, with a generator created right before each measured iteration: SnowKey's time cache is then
 * empty, so what is measured is the sustained rate, bounded by each layout's cap of ids per millisecond (the few
 * milliseconds between the set-up and the start of the measurement are under 0.5% of a 2 s iteration).
 *
 * <p>The holdings contenders ({@link IdSource#growsHoldings}) keep one generator for the whole trial instead: it grows
 * in the first set-up ({@link HoldingsWarmUp}), before the warm-up iterations, and every iteration starts with its time
 * cache spent, so that what is measured is the sustained rate of a generator that has grown.
 */
@State(Scope.Benchmark)
public abstract class FreshGeneratorPerIteration {

    @Param({IdSource.SNOWKEY_SPI_HOLDINGS_13, IdSource.SNOWKEY_CORE_HOLDINGS_13, IdSource.SNOWKEY_SPI_13, IdSource.SNOWKEY_CORE_13,
            IdSource.SNOWKEY_SPI_10, IdSource.SNOWKEY_CORE_10, IdSource.SS_SNOWFLAKE, IdSource.COSID, IdSource.HUTOOL})
    public String generator;

    protected IdSource source;

    @Setup(Level.Trial)
    public void grownGenerator() {
        if (IdSource.growsHoldings(generator)) {
            source = IdSource.create(generator);
        }
    }

    @Setup(Level.Iteration)
    public void freshGenerator() {
        if (IdSource.growsHoldings(generator)) {
            HoldingsWarmUp.growAndReport(generator, source);
            HoldingsWarmUp.spendTimeCache(source);
        } else {
            source = IdSource.create(generator);
        }
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
}
