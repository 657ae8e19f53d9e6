package org.snowkey.segment.store;

import java.util.List;
import java.util.OptionalLong;

/** A {@link RangeLog} holding a connection pool or a client of its own, for an operator command; closing releases it. */
public interface OpenRangeLog extends RangeLog, AutoCloseable {

    @Override
    void close();

    /** A log read through a pool or client that {@code close} releases. */
    static OpenRangeLog of(final RangeLog log, final Runnable close) {
        return new OpenRangeLog() {

            @Override
            public List<String> keys() {
                return log.keys();
            }

            @Override
            public OptionalLong nextValue(final String key) {
                return log.nextValue(key);
            }

            @Override
            public List<RangeLogEntry> recent(final String key, final int limit) {
                return log.recent(key, limit);
            }

            @Override
            public String describe() {
                return log.describe();
            }

            @Override
            public void close() {
                close.run();
            }
        };
    }
}
