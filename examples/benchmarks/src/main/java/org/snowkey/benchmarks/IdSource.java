package org.snowkey.benchmarks;

import java.util.Collection;
import java.util.List;
import java.util.Properties;

import cn.hutool.core.lang.Snowflake;
import me.ahoo.cosid.snowflake.MillisecondSnowflakeId;
import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;
import org.apache.shardingsphere.infra.algorithm.keygen.snowflake.SnowflakeKeyGenerateAlgorithm;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.config.GeneratorSettings;
import org.snowkey.keygen.generator.IdBatch;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.generator.SequenceStream;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.StaticWorkerLease;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.keygen.shardingsphere.ImprovedSnowflakeKeyGenerateAlgorithm;

/**
 * One contender of the comparison, created fresh for every measured iteration.
 *
 * <p>Every contender runs with its defaults and worker id 0, except the holdings contenders: SnowKey at its defaults
 * on a lease of an in-memory pool ({@link BenchmarkLeasePool}), so that a hot generator leases more worker ids (up to
 * {@code max-worker-ids-per-instance}, default 32) as it would on a registry. Each JMH fork uses a single subclass,
 * so the calls below are monomorphic and inlined; the wrapper costs nothing measurable.
 */
public abstract class IdSource implements AutoCloseable {

    /** The contenders, as JMH {@code @Param} values: name, then the SnowKey worker-id-bits where it matters. */
    public static final String SNOWKEY_CORE_13 = "snowkey-core/13";

    public static final String SNOWKEY_CORE_10 = "snowkey-core/10";

    public static final String SNOWKEY_SPI_13 = "snowkey-spi/13";

    public static final String SNOWKEY_SPI_10 = "snowkey-spi/10";

    public static final String SS_SNOWFLAKE = "ss-snowflake";

    public static final String COSID = "cosid";

    public static final String HUTOOL = "hutool";

    /** SnowKey through the SPI on {@code lease-registry: benchmark-memory}, holdings enabled (the default), worker-id-bits 13. */
    public static final String SNOWKEY_SPI_HOLDINGS_13 = "snowkey-spi-holdings/13";

    /** SnowKey's core API on a lease of an in-memory pool, holdings enabled (the default), worker-id-bits 13. */
    public static final String SNOWKEY_CORE_HOLDINGS_13 = "snowkey-core-holdings/13";

    public static final List<String> ALL = List.of(SNOWKEY_SPI_13, SNOWKEY_CORE_13, SNOWKEY_SPI_10, SNOWKEY_CORE_10, SS_SNOWFLAKE, COSID, HUTOOL);

    /** The contenders of the latency report: every one, and SnowKey through the SPI with holdings grown. */
    public static final List<String> LATENCY = List.of(SNOWKEY_SPI_HOLDINGS_13, SNOWKEY_SPI_13, SNOWKEY_CORE_13, SNOWKEY_SPI_10, SNOWKEY_CORE_10,
            SS_SNOWFLAKE, COSID, HUTOOL);

    /** The contenders that lease more worker ids while hot: measured by the sustained benchmarks and the burst. */
    public static final List<String> HOLDINGS = List.of(SNOWKEY_SPI_HOLDINGS_13, SNOWKEY_CORE_HOLDINGS_13);

    /** The contenders of the sustained benchmarks: all of them, with and without holdings. */
    public static final List<String> SUSTAINED = List.of(SNOWKEY_SPI_HOLDINGS_13, SNOWKEY_CORE_HOLDINGS_13, SNOWKEY_SPI_13, SNOWKEY_CORE_13, SNOWKEY_SPI_10,
            SNOWKEY_CORE_10, SS_SNOWFLAKE, COSID, HUTOOL);

    /** The most worker ids a holdings contender issues on: the default {@code max-worker-ids-per-instance}. */
    public static final int MAX_HOLDINGS = GeneratorSettings.DEFAULT_MAX_WORKER_IDS;

    /** The logic table the ShardingSphere contenders are asked for keys of. */
    static final AlgorithmSQLContext CONTEXT = new AlgorithmSQLContext("bench_db", "public", "t_order", "order_id");

    /** The next id. */
    public abstract long nextId();

    /**
     * {@code count} ids, one call of the contender's single-id API each, every id read: the burst's loop. Each contender
     * runs it over its own generator held in a local, as {@link #nextIds} runs the loop over a batch, so that what is
     * measured per id is the contender's call alone. Looping over {@link #nextId()} added a dispatch through this class
     * and a field read per id that no user pays: in a probe it cost SnowKey's SPI path about as much as its whole route
     * to the table's stream, and hid nothing of the clock-bound contenders. This default, for sources outside the burst
     * (the segment contenders), loops over {@link #nextId()}.
     *
     * @return the sum of the ids, so that nothing can be optimised away
     */
    public long singleCalls(final int count) {
        long sum = 0;
        for (int i = 0; i < count; i++) {
            sum += nextId();
        }
        return sum;
    }

    /**
     * {@code count} ids through the contender's batch API; every id is read, as ShardingSphere reads them to fill
     * the rows. This default is for contenders without a batch call: one single-id call per id ({@link #singleCalls}).
     *
     * @return the sum of the ids, so that nothing can be optimised away
     */
    public long nextIds(final int count) {
        return singleCalls(count);
    }

    /** The SnowKey generator issuing the ids, or null for the other contenders. */
    public IdGenerator generator() {
        return null;
    }

    @Override
    public void close() {
    }

    /** Whether the contender leases more worker ids while hot, so that it grows over time rather than starting grown. */
    public static boolean growsHoldings(final String name) {
        return name.startsWith("snowkey-spi-holdings/") || name.startsWith("snowkey-core-holdings/");
    }

    /**
     * The most ids per second the contender's layout allows: SnowKey's worker id issues {@code 2^(S-L)} per ms (one
     * high counter shared by every stream, docs/design.md, "One id space per worker id"), a holdings contender that
     * times the most worker ids it may issue on at once ({@link #MAX_HOLDINGS}); the others 2^S per ms, except
     * ShardingSphere's SNOWFLAKE, which starts every other millisecond at sequence 1 (max-vibration-offset 1), so
     * 4095.5 per ms.
     */
    public static double idsPerSecondCap(final String name) {
        if (name.startsWith("snowkey-")) {
            int workerIdBits = Integer.parseInt(name.substring(name.indexOf('/') + 1));
            double perWorkerId = IdLayout.of(workerIdBits, GeneratorSettings.DEFAULT_SEQUENCE_LOW_BITS, IdLayout.defaults().epochMillis())
                    .sustainedIdsPerMillisecond() * 1_000.0;
            return growsHoldings(name) ? perWorkerId * MAX_HOLDINGS : perWorkerId;
        }
        return SS_SNOWFLAKE.equals(name) ? 4_095_500 : 4_096_000;
    }

    public static IdSource create(final String name) {
        return create(name, new Properties());
    }

    /**
     * @param extraProps extra props for the SnowKey contenders (ignored by the others)
     */
    public static IdSource create(final String name, final Properties extraProps) {
        switch (name) {
            case SNOWKEY_CORE_13:
                return new SnowKeyCore(13, extraProps);
            case SNOWKEY_CORE_10:
                return new SnowKeyCore(10, extraProps);
            case SNOWKEY_SPI_13:
                return new SnowKeySpi(13, extraProps, true);
            case SNOWKEY_SPI_10:
                return new SnowKeySpi(10, extraProps, true);
            case SNOWKEY_CORE_HOLDINGS_13:
                return new SnowKeyCore(13, extraProps, true);
            case SNOWKEY_SPI_HOLDINGS_13:
                return new SnowKeySpi(13, extraProps, true, true);
            case SS_SNOWFLAKE:
                return new ShardingSphereSnowflake();
            case COSID:
                return new CosIdSnowflake();
            case HUTOOL:
                return new HutoolSnowflake();
            default:
                // Any other layout for experiments, e.g. "snowkey-core/1" (2^21 ids per ms: no cap in practice).
                if (name.startsWith("snowkey-core/")) {
                    return new SnowKeyCore(Integer.parseInt(name.substring("snowkey-core/".length())), extraProps);
                }
                if (name.startsWith("snowkey-spi/")) {
                    return new SnowKeySpi(Integer.parseInt(name.substring("snowkey-spi/".length())), extraProps, true);
                }
                if (name.startsWith("snowkey-core-holdings/")) {
                    return new SnowKeyCore(Integer.parseInt(name.substring("snowkey-core-holdings/".length())), extraProps, true);
                }
                if (name.startsWith("snowkey-spi-holdings/")) {
                    return new SnowKeySpi(Integer.parseInt(name.substring("snowkey-spi-holdings/".length())), extraProps, true, true);
                }
                throw new IllegalArgumentException("unknown contender " + name + ", known: " + SUSTAINED);
        }
    }

    /** Reads every id of a ShardingSphere key collection. */
    static long sum(final Collection<? extends Comparable<?>> keys) {
        long sum = 0;
        for (Comparable<?> each : keys) {
            sum += (Long) each;
        }
        return sum;
    }

    /**
     * SnowKey's core API: one {@link SequenceStream} of a fresh {@link IdGenerator} on a static worker id, or with
     * holdings on a lease of a fresh in-memory pool of the layout's size.
     */
    static final class SnowKeyCore extends IdSource {

        private final IdGenerator generator;

        private final SequenceStream stream;

        SnowKeyCore(final int workerIdBits, final Properties extraProps) {
            this(workerIdBits, extraProps, false);
        }

        SnowKeyCore(final int workerIdBits, final Properties extraProps, final boolean holdings) {
            int lowBits = Integer.parseInt(extraProps.getProperty("sequence-low-bits", String.valueOf(GeneratorSettings.DEFAULT_SEQUENCE_LOW_BITS)));
            long cache = Long.parseLong(extraProps.getProperty("max-time-cache-milliseconds", String.valueOf(GeneratorSettings.DEFAULT_MAX_TIME_CACHE_MILLIS)));
            int workerId = Integer.parseInt(extraProps.getProperty("worker-id", "0"));
            IdLayout layout = IdLayout.of(workerIdBits, lowBits, IdLayout.defaults().epochMillis());
            ClockRules rules = new ClockRules(GeneratorSettings.DEFAULT_MAX_TOLERATE_TIME_DIFFERENCE_MILLIS, cache);
            generator = holdings
                    ? new IdGenerator(layout, new BenchmarkLeasePool(layout.workerIdCount()).open(), WallClock.system(), rules, MAX_HOLDINGS)
                    : new IdGenerator(layout, new StaticWorkerLease(workerId), WallClock.system(), rules);
            stream = generator.stream(IdGenerator.DEFAULT_STREAM);
        }

        @Override
        public IdGenerator generator() {
            return generator;
        }

        @Override
        public long nextId() {
            return stream.nextId();
        }

        @Override
        public long singleCalls(final int count) {
            SequenceStream current = stream;
            long sum = 0;
            for (int i = 0; i < count; i++) {
                sum += current.nextId();
            }
            return sum;
        }

        @Override
        public long nextIds(final int count) {
            IdBatch batch = stream.nextIds(count);
            long sum = 0;
            for (int i = 0; i < count; i++) {
                sum += batch.id(i);
            }
            return sum;
        }


        @Override
        public void close() {
            generator.close();
        }
    }

    /** SnowKey through ShardingSphere's SPI, as ShardingSphere calls it: {@code generateKeys(ctx, n)}. */
    static IdSource snowKeySpi(final int workerIdBits, final Properties extraProps, final boolean ownsRuntime) {
        return new SnowKeySpi(workerIdBits, extraProps, ownsRuntime, false);
    }

    /** A ShardingSphere 5.5 key generator, read as ShardingSphere reads it: {@code generateKeys(ctx, n)}, every key unboxed. */
    abstract static class ShardingSphereAlgorithm extends IdSource {

        protected final KeyGenerateAlgorithm algorithm;

        ShardingSphereAlgorithm(final KeyGenerateAlgorithm algorithm) {
            this.algorithm = algorithm;
        }

        @Override
        public long nextId() {
            return (Long) algorithm.generateKeys(CONTEXT, 1).iterator().next();
        }

        @Override
        public long singleCalls(final int count) {
            KeyGenerateAlgorithm current = algorithm;
            long sum = 0;
            for (int i = 0; i < count; i++) {
                sum += (Long) current.generateKeys(CONTEXT, 1).iterator().next();
            }
            return sum;
        }

        @Override
        public long nextIds(final int count) {
            return sum(algorithm.generateKeys(CONTEXT, count));
        }
    }

    static final class SnowKeySpi extends ShardingSphereAlgorithm {

        private final boolean ownsRuntime;

        /**
         * @param ownsRuntime true to start from (and end with) no generator in the JVM's runtime, so that the
         *                    scope's generator is fresh; false to share the runtime with other contenders
         */
        SnowKeySpi(final int workerIdBits, final Properties extraProps, final boolean ownsRuntime) {
            this(workerIdBits, extraProps, ownsRuntime, false);
        }

        /**
         * @param holdings true for {@code lease-registry: benchmark-memory} (holdings at their default) instead of
         *                 {@code worker-id: 0}
         */
        SnowKeySpi(final int workerIdBits, final Properties extraProps, final boolean ownsRuntime, final boolean holdings) {
            super(new ImprovedSnowflakeKeyGenerateAlgorithm());
            this.ownsRuntime = ownsRuntime;
            if (ownsRuntime) {
                // A fresh generator for the scope: the runtime shares one per scope in the JVM.
                SnowflakeRuntime.get().closeAll();
            }
            Properties props = new Properties();
            if (holdings) {
                props.setProperty("lease-registry", BenchmarkLeaseProvider.NAME);
            } else {
                props.setProperty("worker-id", "0");
            }
            props.setProperty("worker-id-bits", String.valueOf(workerIdBits));
            props.putAll(extraProps);
            algorithm.init(props);
        }

        /** The scope's generator in the runtime (created by the first call), when this contender owns the runtime. */
        @Override
        public IdGenerator generator() {
            if (!ownsRuntime) {
                return null;
            }
            return SnowflakeRuntime.get().generators().stream().findFirst().orElse(null);
        }

        @Override
        public void close() {
            if (ownsRuntime) {
                SnowflakeRuntime.get().closeAll();
            }
        }
    }

    /** ShardingSphere 5.5.2 {@code SNOWFLAKE} with default props, no compute node context (worker id 0). */
    static final class ShardingSphereSnowflake extends ShardingSphereAlgorithm {

        ShardingSphereSnowflake() {
            super(new SnowflakeKeyGenerateAlgorithm());
            algorithm.init(new Properties());
        }
    }

    /**
     * CosId {@code MillisecondSnowflakeId} with its defaults (41-bit timestamp, 10 machine bits, 12 sequence bits),
     * machine 0. Its SnowflakeId has no batch call in 2.13: a batch is one generate() per id.
     */
    static final class CosIdSnowflake extends IdSource {

        private final MillisecondSnowflakeId snowflake = new MillisecondSnowflakeId(0);

        @Override
        public long nextId() {
            return snowflake.generate();
        }

        @Override
        public long singleCalls(final int count) {
            MillisecondSnowflakeId current = snowflake;
            long sum = 0;
            for (int i = 0; i < count; i++) {
                sum += current.generate();
            }
            return sum;
        }

    }

    /**
     * Hutool {@code Snowflake} with its defaults (5 worker + 5 data center bits, 12 sequence bits), worker 0, data
     * center 0. It has no batch call: a batch is one nextId() per id.
     */
    static final class HutoolSnowflake extends IdSource {

        private final Snowflake snowflake = new Snowflake(0, 0);

        @Override
        public long nextId() {
            return snowflake.nextId();
        }

        @Override
        public long singleCalls(final int count) {
            Snowflake current = snowflake;
            long sum = 0;
            for (int i = 0; i < count; i++) {
                sum += current.nextId();
            }
            return sum;
        }

    }
}
