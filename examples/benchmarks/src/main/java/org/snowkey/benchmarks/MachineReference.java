package org.snowkey.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * How fast the machine ran during a run: a fixed loop shaped like one id's path (volatile loads through a chain of six
 * objects, a store), {@link BurstBenchmark#IDS} steps, single shot right after the same 2 s idle as the bursts.
 *
 * <p>Why it is in the run: the clock-bound contenders take the same time on any machine (1,000,000 ids at 4,096 a
 * millisecond), while a burst from the time cache runs at the speed of the CPU. A shared VM's CPU speed moves from one
 * minute to the next, and every ratio of a burst to {@code SNOWFLAKE} moves with it. This loop never changes, so its
 * time says which state the machine was in, and runs compare by it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class MachineReference {

    private static final int CHAIN = 6;

    private volatile Node head;

    @Setup(Level.Trial)
    public void chain() {
        Node first = null;
        for (int i = CHAIN; i > 0; i--) {
            first = new Node(first, i);
        }
        head = first;
    }

    @Setup(Level.Iteration)
    public void idle() throws InterruptedException {
        Thread.sleep(BurstBenchmark.IDLE_MILLIS);
    }

    @Benchmark
    public long steps() {
        long sum = 0;
        for (int i = 0; i < BurstBenchmark.IDS; i++) {
            Node last = head;
            for (Node each = last; each != null; each = each.next) {
                sum += each.value;
                last = each;
            }
            last.seen = sum;
        }
        return sum;
    }

    private static final class Node {

        /** Volatile, like the id path's reads: read again on every step, never hoisted out of the loop. */
        private volatile Node next;

        private final long value;

        private long seen;

        Node(final Node next, final long value) {
            this.next = next;
            this.value = value;
        }
    }
}
