package org.snowkey.keygen.shardingsphere;

import java.util.AbstractList;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.RandomAccess;

/**
 * The one key of a single-row INSERT, as the immutable list {@code generateKeys(ctx, 1)} of both key generators
 * returns. It holds the key unboxed and boxes it when read, like {@code SegmentBatch}, with an iterator that holds the
 * key itself: when the caller reads the key at once (iterating the collection and unboxing), the JIT can drop the list,
 * the iterator and the {@code Long}. {@code Collections.singletonList(Long)} keeps the {@code Long} (24 bytes a key, and
 * {@code AbstractList}'s own iterator keeps it too), and that allocation is a large share of the cost of one key on
 * a busy machine. Where ShardingSphere keeps the keys, a {@code Long} per key is allocated when it reads them.
 * Public for the line adapters that return keys the 5.5 way (5.5.3).
 */
public final class SingleKey extends AbstractList<Long> implements RandomAccess {

    private final long key;

    public SingleKey(final long key) {
        this.key = key;
    }

    @Override
    public Long get(final int index) {
        if (index != 0) {
            throw new IndexOutOfBoundsException("index " + index + " of a single key");
        }
        return key;
    }

    @Override
    public int size() {
        return 1;
    }

    /** An iterator of its own holding the key: {@code AbstractList}'s, or one reading this list's field, kept the box alive. */
    @Override
    public Iterator<Long> iterator() {
        return new One(key);
    }

    private static final class One implements Iterator<Long> {

        private final long key;

        private boolean read;

        One(final long key) {
            this.key = key;
        }

        @Override
        public boolean hasNext() {
            return !read;
        }

        @Override
        public Long next() {
            if (read) {
                throw new NoSuchElementException("a single key was read already");
            }
            read = true;
            return key;
        }
    }
}
