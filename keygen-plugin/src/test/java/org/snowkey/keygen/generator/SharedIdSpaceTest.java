package org.snowkey.keygen.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.testing.ManualClock;
import org.snowkey.keygen.testing.SwitchableLease;

/**
 * The streams of one worker id are one id space: the timestamp and high sequence of every id come from one counter,
 * each table keeps only its low bits as a cycle of its own.
 */
class SharedIdSpaceTest {

    private static final IdLayout LAYOUT = IdLayout.defaults();

    private static final long T = LAYOUT.epochMillis() + 1_000_000L;

    private static SwitchableLease lease() {
        return new SwitchableLease(new LeaseGrant(7, T, LeaseGrant.UNBOUNDED, "worker id 7 of a test pool"));
    }

    @Test
    void twoTablesIssuingTogetherAfterIdlenessNeverShareAnIdAndEachStaysBalanced() {
        ManualClock clock = new ManualClock(T);
        IdGenerator generator = new IdGenerator(LAYOUT, lease(), clock, new ClockRules(10, 1_000));
        SequenceStream orders = generator.stream("t_order");
        SequenceStream items = generator.stream("t_order_item");
        Set<Long> all = new HashSet<>();
        int[] orderParity = new int[2];
        int[] itemParity = new int[2];
        orders.nextId();
        clock.advance(100);
        items.nextId();
        // An order and its one item inserted together, then a pause longer than the time cache cap: the cap moves the
        // issuing timestamp forward for both tables at once.
        for (int i = 0; i < 200; i++) {
            clock.advance(5_000);
            long order = orders.nextId();
            long item = items.nextId();
            assertTrue(all.add(order), "order id " + order + " issued twice: " + LAYOUT.decode(order));
            assertTrue(all.add(item), "item id " + item + " repeats an id of the worker id: " + LAYOUT.decode(item));
            orderParity[(int) (order % 2)]++;
            itemParity[(int) (item % 2)]++;
        }
        assertEquals(100, orderParity[0], "t_order's ids alternate id % 2");
        assertEquals(100, itemParity[0], "t_order_item's ids alternate id % 2");
    }

    @Test
    void alternatingInsertsKeepEveryTableBalancedModuloFourAtFourLowBits() {
        IdLayout layout = IdLayout.of(13, 4, LAYOUT.epochMillis());
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        IdGenerator generator = new IdGenerator(layout, lease(), clock, new ClockRules(10, 1_000));
        List<SequenceStream> tables = List.of(generator.stream("a"), generator.stream("b"), generator.stream("c"));
        int[][] buckets = new int[3][16];
        Set<Long> all = new HashSet<>();
        for (int i = 0; i < 1_600; i++) {
            for (int t = 0; t < 3; t++) {
                long id = tables.get(t).nextId();
                assertTrue(all.add(id), "id " + id + " twice");
                buckets[t][(int) (id % 16)]++;
            }
        }
        for (int t = 0; t < 3; t++) {
            for (int b = 0; b < 16; b++) {
                assertEquals(100, buckets[t][b], "table " + t + " id % 16 == " + b);
            }
        }
    }

    @Test
    void aStreamFirstUsedLateStartsAboveEverythingTheWorkerIdIssued() {
        // A table moved to another key generator (or scope) on the same worker id gets a stream it never used: that
        // stream must never issue below what the table already got.
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        IdGenerator generator = new IdGenerator(LAYOUT, lease(), clock, new ClockRules(10, 10_000));
        generator.stream(IdGenerator.DEFAULT_STREAM).nextId();
        clock.advance(3);
        SequenceStream table = generator.stream("t_order_item");
        List<Long> before = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            before.add(table.nextId());
        }
        long highest = before.get(before.size() - 1);
        for (int i = 0; i < 5_000; i++) {
            long after = generator.nextId();
            assertTrue(after > highest, "the global stream issued " + LAYOUT.decode(after) + " at or below " + LAYOUT.decode(highest));
        }
    }

    @Test
    void aBatchIsOneStepOnTheSharedCounterAndContinuesTheTablesCycle() {
        ManualClock clock = new ManualClock(T).advanceOnPause(true);
        IdGenerator generator = new IdGenerator(LAYOUT, lease(), clock, new ClockRules(10, 10_000));
        SequenceStream orders = generator.stream("t_order");
        SequenceStream items = generator.stream("t_order_item");
        long order = orders.nextId();
        IdBatch batch = items.nextIds(5);
        long next = orders.nextId();
        assertEquals(0, order % 2);
        assertEquals(1, next % 2, "t_order's cycle goes on whatever t_order_item took");
        for (int i = 0; i < batch.size(); i++) {
            assertEquals(i % 2, batch.id(i) % 2, "the batch continues t_order_item's cycle");
            assertTrue(batch.id(i) > order && batch.id(i) < next, "the batch sits between the ids issued before and after it");
        }
        assertEquals(2, orders.idsIssued());
        assertEquals(7, generator.idsIssued());
    }

    @Test
    void aLayoutWithoutHighSequenceBitsIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new IdGenerator(IdLayout.of(20, 2, LAYOUT.epochMillis()), lease(), new ManualClock(T), new ClockRules(10, 10)));
        assertTrue(refused.getMessage().contains("sequence-low-bits must be below the sequence bits"), refused.getMessage());
    }
}
