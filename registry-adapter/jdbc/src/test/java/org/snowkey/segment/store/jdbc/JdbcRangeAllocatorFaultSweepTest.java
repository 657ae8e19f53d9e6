package org.snowkey.segment.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import java.util.logging.Logger;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.snowkey.lease.testing.StartValuesFixtures;
import org.snowkey.lease.store.jdbc.faults.FaultSweep;
import org.snowkey.lease.testing.faults.StoreFault;
import org.snowkey.lease.testing.faults.SweptRanges;
import org.snowkey.store.jdbc.JdbcTableName;

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
            JdbcRangeAllocator faulty = new JdbcRangeAllocator(connections(run.url()), settings, "faulty", StartValuesFixtures.everyKeyAtOne());
            JdbcRangeAllocator other = new JdbcRangeAllocator(connections(run.url()), settings, "other", StartValuesFixtures.everyKeyAtOne());
            SweptRanges ranges = new SweptRanges();
            for (int round = 0; round < 2; round++) {
                ranges.allocate(faulty, "k", 10);
                ranges.allocate(other, "k", 10);
            }
            ranges.checkDisjoint();
        });
        assertTrue(injected.size() >= 30, "too few faults fired to call this a sweep: " + injected);
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
