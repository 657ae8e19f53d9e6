package org.snowkey.keygen.segment.runtime;

import org.snowkey.keygen.segment.RangeAllocator;

/** A {@link RangeAllocator} that owns a connection pool or a client, closed when its last sequence goes. */
public interface OpenAllocator extends RangeAllocator, AutoCloseable {

    /** Closes the pool or client; a fetch still running fails and its sequence, closed first, does not retry. */
    @Override
    void close();
}
