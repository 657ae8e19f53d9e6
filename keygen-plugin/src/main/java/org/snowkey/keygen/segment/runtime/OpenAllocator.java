package org.snowkey.keygen.segment.runtime;

import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.RangeAllocator;

/** A {@link RangeAllocator} that owns a connection pool or a client, closed when its last sequence goes. */
public interface OpenAllocator extends RangeAllocator, AutoCloseable {

    /** Closes the pool or client; a fetch still running fails and its sequence, closed first, does not retry. */
    @Override
    void close();

    /** An allocator over a pool or client that {@code close} releases (the provider's resource, not the allocator's). */
    static OpenAllocator of(final RangeAllocator allocator, final Runnable close) {
        return new OpenAllocator() {

            @Override
            public NumberRange allocate(final String key, final long size) {
                return allocator.allocate(key, size);
            }

            @Override
            public String describe() {
                return allocator.describe();
            }

            @Override
            public void close() {
                close.run();
            }

            @Override
            public String toString() {
                return allocator.toString();
            }
        };
    }
}
