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
 */
@State(Scope.Benchmark)
public abstract class FreshGeneratorPerIteration {

    @Param({IdSource.SNOWKEY_SPI_13, IdSource.SNOWKEY_CORE_13, IdSource.SNOWKEY_SPI_10, IdSource.SNOWKEY_CORE_10,
            IdSource.SS_SNOWFLAKE, IdSource.COSID, IdSource.HUTOOL})
    public String generator;

    protected IdSource source;

    @Setup(Level.Iteration)
    public void freshGenerator() {
        source = IdSource.create(generator);
    }

    @TearDown(Level.Iteration)
    public void closeGenerator() {
        source.close();
    }
}
