package org.snowkey.segment.store;

/** A {@link RangeLog} holding a connection pool or a client of its own, for an operator command; closing releases it. */
public interface OpenRangeLog extends RangeLog, AutoCloseable {

    @Override
    void close();
}
