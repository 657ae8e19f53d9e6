package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;

/**
 * {@code SNOWKEY_SEGMENT}'s choice of sequence per INSERT, through the SPI: the last-table fast path must hand out the
 * sequence of the table asked for, whether the name strings are the same instances or equal copies, and never a
 * sequence of a scope the binding has left.
 */
class SegmentBindingTest {

    private SnowKeySegmentKeyGenerateAlgorithm algorithm;

    @BeforeEach
    void setUp() {
        SegmentRuntime.get().closeAll();
        algorithm = new SnowKeySegmentKeyGenerateAlgorithm();
        Properties props = new Properties();
        props.setProperty("segment-allocator", SharedMemorySegmentAllocatorProvider.NAME);
        props.setProperty("segment-step-min", "10");
        props.setProperty("segment-step-max", "10");
        // Per test method a database of its own, so counters left by other tests do not matter.
        props.setProperty("segment-start-values", "binding_db.t_item=1000001");
        algorithm.init(props);
    }

    @AfterEach
    void tearDown() {
        SegmentRuntime.get().closeAll();
    }

    private long key(final String database, final String table) {
        Collection<? extends Comparable<?>> keys = algorithm.generateKeys(new AlgorithmSQLContext(database, "public", table, "id"), 1);
        assertEquals(1, keys.size());
        return (Long) keys.iterator().next();
    }

    @Test
    void eachTableGetsItsOwnSequenceWhateverStringInstancesShardingSpherePasses() {
        String database = "binding_db";
        String order = "t_order";
        long firstOrder = key(database, order);
        long secondOrder = key(database, order);
        long firstItem = key(database, "t_item");
        // Equal copies, not the instances cached as the last table: the lookup must still find t_order's sequence.
        long thirdOrder = key(new String(database), new String(order));
        long secondItem = key(database, new String("t_item"));
        assertEquals(secondOrder + 1, thirdOrder, "t_order continues its own sequence");
        assertTrue(firstOrder < secondOrder);
        assertTrue(firstItem >= 1_000_001, "t_item has its own sequence with its start value: " + firstItem);
        assertEquals(firstItem + 1, secondItem);
        assertTrue(thirdOrder < 1_000_001, "t_order never takes t_item's keys: " + thirdOrder);
    }

    @Test
    void aBatchThroughTheSpiIsOneContiguousSliceOfTheTablesSequence() {
        long before = key("binding_db", "t_batch");
        List<Long> keys = algorithm.generateKeys(new AlgorithmSQLContext("binding_db", "public", "t_batch", "id"), 25).stream().map(each -> (Long) each).toList();
        assertEquals(25, keys.size());
        for (int i = 1; i < keys.size(); i++) {
            assertTrue(keys.get(i) > keys.get(i - 1));
        }
        assertTrue(keys.get(0) > before);
    }

    @Test
    void aSequenceOfAScopeTheBindingLeftIsNeverHandedOutAgain() {
        String database = "binding_db";
        String table = "t_scope";
        long first = key(database, table);
        Object owner = new Object();
        algorithm.binding().bind(Optional.empty(), owner);
        SegmentRuntime.get().release(owner);
        // The scope the fast path remembers is closed; without a new bind the binding must not issue from it...
        SegmentRuntime.get().closeAll();
        Object next = new Object();
        algorithm.binding().bind(Optional.empty(), next);
        // ...and after it, keys come from the new scope's first range, above everything the old scope held (range of 10).
        long afterRebind = key(database, table);
        assertTrue(afterRebind > first + 9 - ((first - 1) % 10), "key " + afterRebind + " came from the closed scope's range (first key there " + first + ")");
        org.snowkey.keygen.segment.runtime.SegmentScope left = algorithm.binding().scope();
        SegmentRuntime.get().release(next);
        // Released under a key generator that still issues: the binding joins a new scope rather than the closed one.
        assertTrue(left.isClosed());
        assertNotSame(left, algorithm.binding().scope(), "the closed scope was handed out again");
        assertTrue(algorithm.binding().scope().sequence("binding_db.t_never_used").nextId() >= 1);
    }
}
