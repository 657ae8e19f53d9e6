package org.snowkey.benchmarks;

import java.util.Locale;

import org.snowkey.keygen.generator.IdGenerator;

/**
 * Brings a holdings contender ({@link IdSource#growsHoldings}) to the state a hot generator runs in: calls back to back
 * until its holdings stop growing, then its time cache spent. A generator grows only while its calls wait for the
 * clock, doubling after 3 checks 100 ms apart (about 0.3 s at the cap per doubling, 5 doublings from 1 to 32), so a
 * fresh one would spend most of a short iteration growing; the benchmarks keep one generator per trial instead and
 * grow it here, in the first set-up, before the warm-up iterations.
 *
 * <p>It calls the contender's generator directly (its own stream; the holdings and the time cache are the generator's),
 * never the contender's measured path: batches read through that path would teach the JIT that the keys it consumes may
 * be a batch or a single key, and the single calls measured after would pay for a call site no peer's fork has.
 */
final class HoldingsWarmUp {

    /** The most a set-up drives growth; a machine too slow to keep 32 worker ids at the cap stops growing earlier. */
    static final long GROWTH_TIMEOUT_MILLIS = 15_000;

    /** Growth has stopped when the holdings did not change for this long (a doubling takes about 0.3 s at the cap). */
    static final long STALLED_MILLIS = 2_000;

    private HoldingsWarmUp() {
    }

    /**
     * Calls back to back (batches of 1,000) until the generator issues on {@link IdSource#MAX_HOLDINGS} worker ids, or
     * its holdings stopped changing, or the timeout; returns how many worker ids it issues on.
     */
    static int grow(final IdSource source) {
        source.nextId();
        IdGenerator generator = source.generator();
        long start = System.nanoTime();
        long changed = start;
        int holdings = generator.workerIds().length;
        while (holdings < IdSource.MAX_HOLDINGS && System.nanoTime() - changed < STALLED_MILLIS * 1_000_000L
                && System.nanoTime() - start < GROWTH_TIMEOUT_MILLIS * 1_000_000L) {
            generator.nextIds(BurstBenchmark.BATCH);
            int now = generator.workerIds().length;
            if (now != holdings) {
                holdings = now;
                changed = System.nanoTime();
            }
        }
        return holdings;
    }

    /** Spends the time cache: calls back to back until the generator's counter has caught up with the clock. */
    static void spendTimeCache(final IdSource source) {
        IdGenerator generator = source.generator();
        while (generator.timeCacheMillis() > 1) {
            generator.nextIds(BurstBenchmark.BATCH);
        }
    }

    /** Grows the contender and prints what it reached, for the JMH log. */
    static void growAndReport(final String name, final IdSource source) {
        long start = System.nanoTime();
        int holdings = grow(source);
        System.out.printf(Locale.ROOT, "%n[holdings] %s issues on %d worker ids (grown for %d ms)%n", name, holdings, (System.nanoTime() - start) / 1_000_000);
    }
}
