package org.snowkey.segment.store.jdbc;

import java.util.Optional;

import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.segment.SegmentPropertyNames;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.keygen.segment.StartValues;
import org.snowkey.keygen.segment.runtime.OpenAllocator;
import org.snowkey.keygen.segment.runtime.PreparedAllocator;
import org.snowkey.keygen.segment.runtime.SegmentBackendSettings;
import org.snowkey.segment.store.StoreSegmentAllocatorProvider;
import org.snowkey.store.jdbc.JdbcLibraries;
import org.snowkey.store.jdbc.JdbcPools;
import org.snowkey.store.jdbc.JdbcStoreProps;
import org.snowkey.store.jdbc.JdbcStoreSettings;

import com.zaxxer.hikari.HikariDataSource;

/**
 * {@code segment-allocator: jdbc}: ranges from a counter table in a database the application already runs, with the
 * same {@code jdbc-*} props as the JDBC worker-id lease ({@code jdbc-table} defaults to {@code snowkey_segment}, its log
 * table is that name plus {@code _log}). Parsing and preparing connect to nothing; the pool connects on the first
 * allocation, which creates missing tables when {@code jdbc-create-table} is true.
 */
public final class JdbcSegmentAllocatorProvider extends StoreSegmentAllocatorProvider<JdbcSegmentAllocatorProvider.Parsed> {

    public static final String NAME = "jdbc";

    /** Allocations of several keys may run at once; a few connections serve them, and each is held for one short transaction. */
    private static final int POOL_SIZE = 4;

    public JdbcSegmentAllocatorProvider() {
        super(JdbcLibraries.STORE, "JDBC", Parsed.class);
    }

    @Override
    protected Parsed parseStore(final PropertyReader reader, final SegmentSettings sequence) {
        JdbcStoreSettings store = JdbcStoreProps.parse(reader, SegmentPropertyNames.ALLOCATOR + " = jdbc", JdbcSegmentSettings.DEFAULT_TABLE,
                timeoutWithin(sequence.fetchTimeoutMillis()));
        return new Parsed(store, JdbcSegmentSettings.of(store));
    }

    /**
     * One connection attempt or statement takes at most half the fetch timeout (5 s at most, HikariCP's 250 ms at
     * least): an INSERT that waits for a range while the database is unreachable then fails with the database's error.
     */
    static long timeoutWithin(final long fetchTimeoutMillis) {
        return Math.max(JdbcStoreSettings.MIN_TIMEOUT_MILLIS, Math.min(JdbcStoreSettings.DEFAULT_TIMEOUT_MILLIS, fetchTimeoutMillis / 2));
    }

    /** Parsed and prepared are one: the mode adds nothing to the JDBC props. */
    @Override
    protected PreparedAllocator prepareStore(final Parsed parsed, final Optional<ClusterRegistry> cluster) {
        return parsed;
    }

    record Parsed(JdbcStoreSettings store, JdbcSegmentSettings segment) implements SegmentBackendSettings, PreparedAllocator {

        /**
         * As for the JDBC lease: URL without credentials, table, and the users, also one given inside the URL (an
         * unqualified table lies in the user's schema; two counter tables made one scope would hand this JVM's ranges
         * of one table's keys from the other's counter, ranges that other instances also get).
         */
        @Override
        public String scopeKey() {
            return NAME + "|" + store.scopeIdentity();
        }

        @Override
        public OpenAllocator open(final String owner, final StartValues starts) {
            HikariDataSource pool = JdbcPools.open(store, store.redactor(), "snowkey-segment-" + store.table().value(), POOL_SIZE);
            return openOn(pool, pool::close, opened -> new JdbcRangeAllocator(opened, segment, owner, starts));
        }

        @Override
        public String toString() {
            return "JdbcSegmentAllocatorProvider.Parsed[" + scopeKey() + "]";
        }
    }
}
