package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

import org.junit.jupiter.api.Test;

/** The list {@code generateKeys(ctx, 1)} returns behaves as a one-element immutable {@code List<Long>} wherever ShardingSphere reads it. */
class SingleKeyTest {

    private static final long KEY = 9_007_199_254_740_991L;

    @Test
    void readsAsAOneElementListOfItsKey() {
        SingleKey key = new SingleKey(KEY);
        assertEquals(List.of(KEY), key);
        assertEquals(List.of(KEY).hashCode(), key.hashCode());
        assertEquals(1, key.size());
        assertEquals(KEY, key.get(0));
        assertEquals(List.of(KEY), new ArrayList<>(key), "addAll reads it through toArray");
        assertThrows(IndexOutOfBoundsException.class, () -> key.get(1));
        assertThrows(IndexOutOfBoundsException.class, () -> key.get(-1));
    }

    @Test
    void itsIteratorYieldsTheKeyOnceAndEachIteratorStartsAfresh() {
        SingleKey key = new SingleKey(KEY);
        Iterator<Long> first = key.iterator();
        assertTrue(first.hasNext());
        assertEquals(KEY, first.next());
        assertFalse(first.hasNext());
        assertThrows(NoSuchElementException.class, first::next);
        long sum = 0;
        for (long each : key) {
            sum += each;
        }
        assertEquals(KEY, sum);
    }

    @Test
    void itCannotBeChanged() {
        SingleKey key = new SingleKey(KEY);
        assertThrows(UnsupportedOperationException.class, () -> key.add(1L));
        assertThrows(UnsupportedOperationException.class, () -> key.set(0, 1L));
        assertThrows(UnsupportedOperationException.class, () -> key.iterator().remove());
    }
}
