package org.snowkey.segment.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.logging.Logger;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.keygen.segment.StartValues;
import org.snowkey.lease.store.jdbc.JdbcTableName;
import org.snowkey.lease.store.jdbc.faults.FaultSweep;
import org.snowkey.lease.store.jdbc.faults.StoreFault;

/**
 * Every store call of the JDBC range allocator fails once, in each way ({@link StoreFault}), at each of its first
 * occurrences: table probes and DDL, the counter row's creation, the locked read, the advance, the log insert, the
 * commit. Two allocators share the tables; whatever fails, no number is handed out in two ranges.
 */
class JdbcRangeAllocatorFaultSweepTest {

    private static final JdbcTableName TABLE = new JdbcTableName("seg_sweep");

    @Test
    void noStoreFaultMakesTwoRangesOverlap() {
        List<String> injected = new FaultSweep("range_sweep", 2).sweep(run -> {
            JdbcSegmentSettings settings = new JdbcSegmentSettings(TABLE, true, 5_000L, run.url());
            JdbcRangeAllocator faulty = new JdbcRangeAllocator(connections(run.url()), settings, "faulty", StartValues.ofOne());
            JdbcRangeAllocator other = new JdbcRangeAllocator(connections(run.url()), settings, "other", StartValues.ofOne());
            List<NumberRange> ranges = new ArrayList<>();
            for (int round = 0; round < 2; round++) {
                allocate(faulty, "k", ranges);
                allocate(other, "k", ranges);
            }
            ranges.sort(Comparator.comparingLong(NumberRange::first));
            for (int i = 1; i < ranges.size(); i++) {
                assertTrue(ranges.get(i).first() > ranges.get(i - 1).last(), "ranges overlap: " + ranges);
            }
        });
        assertTrue(injected.size() >= 30, "too few faults fired to call this a sweep: " + injected);
    }

    /** A failed allocation is retried, as the segment generator retries; a fault fires once, so the second try gets through. */
    private static void allocate(final JdbcRangeAllocator allocator, final String key, final List<NumberRange> ranges) {
        for (int attempt = 0; ; attempt++) {
            try {
                ranges.add(allocator.allocate(key, 10));
                return;
            } catch (final RangeUnavailableException ex) {
                if (attempt >= 2) {
                    throw ex;
                }
            }
        }
    }

    /** Unpooled connections through the driver manager: every call of the allocator reaches the fault-injecting driver. */
    private static DataSource connections(final String url) {
        return new DataSource() {

            @Override
            public Connection getConnection() throws SQLException {
                return DriverManager.getConnection(url, "sa", "");
            }

            @Override
            public Connection getConnection(final String username, final String password) throws SQLException {
                return DriverManager.getConnection(url, username, password);
            }

            @Override
            public PrintWriter getLogWriter() {
                return null;
            }

            @Override
            public void setLogWriter(final PrintWriter out) {
            }

            @Override
            public void setLoginTimeout(final int seconds) {
            }

            @Override
            public int getLoginTimeout() {
                return 0;
            }

            @Override
            public Logger getParentLogger() throws SQLFeatureNotSupportedException {
                throw new SQLFeatureNotSupportedException();
            }

            @Override
            public <T> T unwrap(final Class<T> iface) throws SQLException {
                throw new SQLException("not a wrapper");
            }

            @Override
            public boolean isWrapperFor(final Class<?> iface) {
                return false;
            }
        };
    }
}
