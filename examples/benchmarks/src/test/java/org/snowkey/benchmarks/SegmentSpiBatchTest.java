package org.snowkey.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.shardingsphere.SnowKeySegmentKeyGenerateAlgorithm;

/**
 * What the segment benchmark's SPI contender claims, checked without timing: it issues through
 * {@code SNOWKEY_SEGMENT} from the benchmark allocator, and a batch of 1,000 is one atomic step. Two threads race
 * batches on one sequence: had a batch been taken key by key, the other thread's keys would interleave with it,
 * so every batch being 1,000 consecutive keys, all disjoint, shows one step per batch.
 */
class SegmentSpiBatchTest {

    private static final int BATCHES_PER_THREAD = 2_000;

    @Test
    void racingBatchesOfOneThousandAreEachOneContiguousSlice() throws Exception {
        try (SegmentSource source = SegmentSource.create(SegmentSource.SNOWKEY_SEGMENT_SPI)) {
            SnowKeySegmentKeyGenerateAlgorithm algorithm = ((SegmentSource.SnowKeySegmentSpi) source).algorithm();
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                Callable<List<long[]>> batches = () -> {
                    List<long[]> firstAndLast = new ArrayList<>();
                    for (int i = 0; i < BATCHES_PER_THREAD; i++) {
                        Collection<? extends Comparable<?>> keys = algorithm.generateKeys(IdSource.CONTEXT, BurstBenchmark.BATCH);
                        long previous = -1;
                        long first = -1;
                        for (Comparable<?> each : keys) {
                            long key = (Long) each;
                            if (first < 0) {
                                first = key;
                            } else if (key != previous + 1) {
                                // A batch crossing into the next range is two slices; with ranges of 100,000 it never splits here.
                                firstAndLast.add(new long[] {first, previous});
                                first = key;
                            }
                            previous = key;
                        }
                        firstAndLast.add(new long[] {first, previous});
                    }
                    return firstAndLast;
                };
                Future<List<long[]>> one = threads.submit(batches);
                Future<List<long[]>> two = threads.submit(batches);
                List<long[]> slices = new ArrayList<>(one.get());
                slices.addAll(two.get());
                slices.sort((a, b) -> Long.compare(a[0], b[0]));
                long keys = 0;
                for (int i = 0; i < slices.size(); i++) {
                    keys += slices.get(i)[1] - slices.get(i)[0] + 1;
                    if (i > 0) {
                        assertTrue(slices.get(i)[0] > slices.get(i - 1)[1], "slices overlap: " + slices.get(i - 1)[1] + " and " + slices.get(i)[0]);
                    }
                }
                assertEquals(2L * BATCHES_PER_THREAD * BurstBenchmark.BATCH, keys);
                // 4,000,000 keys from ranges of 100,000: a batch never straddles one (100,000 is a multiple of 1,000 and every
                // batch is 1,000), so each batch is exactly one slice, i.e. one step.
                assertEquals(2 * BATCHES_PER_THREAD, slices.size(), "batches split into more than one slice each");
                // 40 ranges for 4,000,000 keys, plus at most the one fetched ahead.
                long calls = BenchmarkSegmentAllocatorProvider.lastOpenedCalls();
                assertTrue(calls >= 40 && calls <= 41, "allocator round trips: " + calls);
            } finally {
                threads.shutdownNow();
            }
        }
    }
}
