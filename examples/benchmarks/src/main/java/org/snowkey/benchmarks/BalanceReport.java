package org.snowkey.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.snowkey.keygen.runtime.SnowflakeRuntime;

/**
 * Target 5 (not a JMH timing): how evenly {@code id % n} spreads ids issued one per millisecond, the rate of
 * a quiet table, where classic snowflakes restart their sequence at 0 in every millisecond.
 *
 * <p>All contenders are driven by one thread: every millisecond each of them issues one id. The run has two
 * windows of {@value #IDS_PER_WINDOW} ids each, taken from the same generators one after the other: the second
 * window shows each generator after it has run for more than 10 s (SnowKey's default time-cache cap).
 */
public final class BalanceReport {

    public static final int IDS_PER_WINDOW = 10_000;

    public static final int[] MODULI = {2, 4, 8, 10, 16};

    private BalanceReport() {
    }

    /** The {@code id % n} counts of one contender over one window. */
    public record Row(String contender, String window, long[][] counts) {

        /** max/min of the counts of {@code id % MODULI[index]}; infinite when a remainder never occurs. */
        public double ratio(final int index) {
            long max = Long.MIN_VALUE;
            long min = Long.MAX_VALUE;
            for (long each : counts[index]) {
                max = Math.max(max, each);
                min = Math.min(min, each);
            }
            return min == 0 ? Double.POSITIVE_INFINITY : (double) max / min;
        }

        /** The counts of {@code id % 2}, "even/odd". */
        public String parityCounts() {
            return counts[0][0] + "/" + counts[0][1];
        }
    }

    /** Label and factory of each contender of the balance run, in table order. */
    static Map<String, IdSource> contenders() {
        Map<String, IdSource> result = new LinkedHashMap<>();
        result.put("SnowKey IMPROVED_SNOWFLAKE (SPI, defaults)", IdSource.create(IdSource.SNOWKEY_SPI_13));
        Properties lowBits4 = new Properties();
        lowBits4.setProperty("sequence-low-bits", "4");
        // Worker id 1 makes it a scope of its own next to the default one; the worker id sits above the low bits.
        lowBits4.setProperty("worker-id", "1");
        result.put("SnowKey IMPROVED_SNOWFLAKE (SPI, sequence-low-bits=4, worker-id=1)", IdSource.snowKeySpi(13, lowBits4, false));
        result.put("ShardingSphere SNOWFLAKE 5.5.2", IdSource.create(IdSource.SS_SNOWFLAKE));
        result.put("CosId MillisecondSnowflakeId 2.13.3", IdSource.create(IdSource.COSID));
        result.put("Hutool Snowflake 5.8.44", IdSource.create(IdSource.HUTOOL));
        return result;
    }

    /**
     * Issues {@code idsPerWindow} ids per contender and window, one per contender and millisecond.
     */
    public static List<Row> run(final int idsPerWindow, final int windows) {
        Map<String, IdSource> contenders = contenders();
        List<IdSource> sources = new ArrayList<>(contenders.values());
        List<String> labels = new ArrayList<>(contenders.keySet());
        List<Row> rows = new ArrayList<>();
        try {
            for (int window = 0; window < windows; window++) {
                long[][][] counts = new long[sources.size()][MODULI.length][];
                for (long[][] each : counts) {
                    for (int m = 0; m < MODULI.length; m++) {
                        each[m] = new long[MODULI[m]];
                    }
                }
                long lastMillis = System.currentTimeMillis();
                for (int i = 0; i < idsPerWindow; i++) {
                    lastMillis = awaitNextMillisecond(lastMillis);
                    for (int s = 0; s < sources.size(); s++) {
                        long id = sources.get(s).nextId();
                        for (int m = 0; m < MODULI.length; m++) {
                            counts[s][m][(int) (id % MODULI[m])]++;
                        }
                    }
                }
                String windowLabel = String.format(Locale.ROOT, "ids %,d-%,d", window * idsPerWindow + 1, (window + 1) * idsPerWindow);
                for (int s = 0; s < sources.size(); s++) {
                    rows.add(new Row(labels.get(s), windowLabel, counts[s]));
                }
            }
        } finally {
            sources.forEach(IdSource::close);
            SnowflakeRuntime.get().closeAll();
        }
        return rows;
    }

    private static long awaitNextMillisecond(final long lastMillis) {
        long now = System.currentTimeMillis();
        while (now <= lastMillis) {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
            now = System.currentTimeMillis();
        }
        return now;
    }

    /** The rows as a markdown table. */
    public static String table(final List<Row> rows) {
        StringBuilder out = new StringBuilder();
        out.append("| generator | ids | id % 2 (even/odd) |");
        for (int each : MODULI) {
            out.append(" max/min id % ").append(each).append(" |");
        }
        out.append('\n').append("|---|---|---|");
        out.append("---:|".repeat(MODULI.length)).append('\n');
        for (Row each : rows) {
            out.append("| ").append(each.contender()).append(" | ").append(each.window()).append(" | ").append(each.parityCounts()).append(" |");
            for (int m = 0; m < MODULI.length; m++) {
                out.append(' ').append(format(each.ratio(m))).append(" |");
            }
            out.append('\n');
        }
        return out.toString();
    }

    static String format(final double ratio) {
        return Double.isInfinite(ratio) ? "inf (a remainder never occurs)" : String.format(Locale.ROOT, "%.3f", ratio);
    }

    public static void main(final String[] args) {
        RunAll.quietLogging();
        int ids = args.length > 0 ? Integer.parseInt(args[0]) : IDS_PER_WINDOW;
        System.out.print(table(run(ids, 2)));
    }
}
