package org.snowkey.segment.store.jdbc;

import java.util.Optional;
import java.util.Set;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.segment.SegmentPropertyNames;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.keygen.segment.StartValues;
import org.snowkey.keygen.segment.runtime.OpenAllocator;
import org.snowkey.keygen.segment.runtime.PreparedAllocator;
import org.snowkey.keygen.segment.runtime.SegmentAllocatorProvider;
import org.snowkey.keygen.segment.runtime.SegmentBackendSettings;
import org.snowkey.store.jdbc.JdbcLibraries;
import org.snowkey.store.jdbc.JdbcPools;
import org.snowkey.store.jdbc.JdbcStoreProps;
import org.snowkey.store.jdbc.JdbcStoreSettings;
import org.snowkey.store.jdbc.JdbcTableName;

import com.zaxxer.hikari.HikariDataSource;

/**
 * {@code segment-allocator: jdbc}: ranges from a counter table in a database the application already runs, with the
 * same {@code jdbc-*} props as the JDBC worker-id lease ({@code jdbc-table} defaults to {@code snowkey_segment}, its log
 * table is that name plus {@code _log}). Parsing and preparing connect to nothing; the pool connects on the first
 * allocation, which creates missing tables when {@code jdbc-create-table} is true.
 */
public final class JdbcSegmentAllocatorProvider implements SegmentAllocatorProvider {

    public static final String NAME = "jdbc";

    /** Allocations of several keys may run at once; a few connections serve them, and each is held for one short transaction. */
    private static final int POOL_SIZE = 4;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<String> propertyNames() {
        return JdbcStoreProps.NAMES;
    }

    @Override
    public SegmentBackendSettings parse(final PropertyReader reader, final SegmentSettings sequence) {
        // Names HikariCP's artifact at start-up when it is missing, as the lease backend does.
        JdbcLibraries.REQUIRED.require(SegmentPropertyNames.ALLOCATOR + ": " + NAME);
        JdbcStoreSettings store = JdbcStoreProps.parse(reader, SegmentPropertyNames.ALLOCATOR + " = jdbc", JdbcSegmentSettings.DEFAULT_TABLE,
                timeoutWithin(sequence.fetchTimeoutMillis()));
        try {
            return new Parsed(store, new JdbcSegmentSettings(store.table(), store.createTable(), store.timeoutMillis(), store.url()));
        } catch (final IllegalArgumentException ex) {
            throw new InvalidSettingException(JdbcStoreProps.TABLE, store.table().value(), "a name that leaves room for its log table (plus '"
                    + JdbcSegmentSettings.LOG_SUFFIX + "'): " + JdbcTableName.RULE);
        }
    }

    /**
     * One connection attempt or statement takes at most half the fetch timeout (5 s at most, HikariCP's 250 ms at
     * least): an INSERT that waits for a range while the database is unreachable then fails with the database's error.
     */
    static long timeoutWithin(final long fetchTimeoutMillis) {
        return Math.max(JdbcStoreSettings.MIN_TIMEOUT_MILLIS, Math.min(JdbcStoreSettings.DEFAULT_TIMEOUT_MILLIS, fetchTimeoutMillis / 2));
    }

    @Override
    public PreparedAllocator prepare(final SegmentBackendSettings settings, final Optional<ClusterRegistry> cluster) {
        if (!(settings instanceof Parsed parsed)) {
            throw new IllegalArgumentException("segment settings " + settings + " were not parsed by the JDBC allocator");
        }
        return parsed;
    }

    /** Parsed and prepared are one: the mode adds nothing to the JDBC props. */
    private record Parsed(JdbcStoreSettings store, JdbcSegmentSettings segment) implements SegmentBackendSettings, PreparedAllocator {

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
            try {
                return OpenAllocator.of(new JdbcRangeAllocator(pool, segment, owner, starts), pool::close);
            } catch (final RuntimeException | Error ex) {
                // Nobody else holds the pool yet: left open, its housekeeping thread would outlive the failed open.
                pool.close();
                throw ex;
            }
        }

        @Override
        public String toString() {
            return "JdbcSegmentAllocatorProvider.Parsed[" + scopeKey() + "]";
        }
    }
}
