package org.snowkey.segment.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.SegmentSequence;
import org.snowkey.keygen.segment.SegmentStatus;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.keygen.segment.runtime.SegmentScope;
import org.snowkey.lease.store.jdbc.TestDatabase;
import org.snowkey.lease.testing.CuttableTcpProxy;
import org.snowkey.lease.testing.SegmentOutageChecks;
import org.snowkey.segment.store.jdbc.JdbcRangeLog;
import org.snowkey.segment.store.jdbc.JdbcSegmentSettings;
import org.snowkey.store.jdbc.JdbcTableName;

import com.zaxxer.hikari.HikariDataSource;

/**
 * The allocator's database goes away (a TCP proxy in front of it is cut: connections drop, new ones are refused) for
 * longer than the ranges in memory last, while ShardingSphere-JDBC keeps inserting: inserts go on exactly while the
 * runway lasts, then fail naming the key, the allocator, {@code segment-fetch-timeout-milliseconds} and the cause, and
 * succeed again once the database is back. Every wait is on a condition, with generous deadlines.
 */
class SegmentJdbcOutageEndToEndTest {

    private static final long STEP = 20;

    private static final long DEADLINE_MILLIS = 60_000;

    @TempDir
    Path directory;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    private TestDatabase database;

    private JdbcTableName table;

    private int inserted;

    @AfterEach
    void cleanUp() throws Exception {
        for (AutoCloseable each : toClose) {
            each.close();
        }
        SegmentRuntime.get().closeAll();
        if (table != null) {
            database.dropQuietly(new JdbcTableName(table.value() + JdbcSegmentSettings.LOG_SUFFIX));
            database.dropQuietly(table);
        }
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    @Timeout(180)
    void insertsRideOutTheRunwayThenFailNamingKeyAllocatorAndCauseThenRecover(final TestDatabase on) throws Exception {
        on.assumeAvailable();
        database = on;
        table = TestDatabase.uniqueTable("segout");
        CuttableTcpProxy proxy = new CuttableTcpProxy(on.serverPort());
        toClose.add(proxy);
        Map<String, String> props = new LinkedHashMap<>();
        props.put("segment-allocator", "jdbc");
        props.put("jdbc-url", on.urlAt(proxy.port()));
        props.put("jdbc-username", on.username());
        if (!on.password().isEmpty()) {
            props.put("jdbc-password", on.password());
        }
        props.put("jdbc-table", table.value());
        props.put("segment-step-min", Long.toString(STEP));
        props.put("segment-step-max", Long.toString(STEP));
        props.put("segment-prefetch-percent", "50");
        props.put("segment-fetch-timeout-milliseconds", "1000");
        SegmentYamlFixture fixture = new SegmentYamlFixture(directory, props);
        DataSource dataSource = fixture.open();
        toClose.add(0, (AutoCloseable) dataSource);
        String key = fixture.databaseName() + ".t_order";
        try (Connection connection = dataSource.getConnection(); PreparedStatement insert = connection.prepareStatement("INSERT INTO t_order (note) VALUES (?)")) {
            // The first range: its allocation connects and creates the tables or nodes, which on a loaded machine may take
            // longer than the 1 s fetch timeout: the first insert is retried until it succeeds.
            awaitCondition("the first range arrives", () -> tryInsert(insert));
            // Three quarters of the first range: the second one is fetched in the background meanwhile.
            for (int i = 1; i < 15; i++) {
                insert(insert);
            }
            SegmentSequence sequence = sequenceOf(key);
            awaitCondition("the second range arrives", () -> sequence.status().rangesFetched() == 2);

            proxy.cut();
            long runway = sequence.remaining();
            assertEquals(2 * STEP - 15, runway, "the rest of the first range and the whole second one");
            for (long i = 0; i < runway; i++) {
                insert(insert);
            }
            assertEquals(0, sequence.remaining(), "the runway is used up");
            awaitCondition("the background fetch reports the outage", () -> sequence.status().lastFailure() != null);
            SegmentStatus down = sequence.status();
            String failure = messages(assertThrows(SQLException.class, () -> insert(insert), "both buffers empty and no allocator: the insert fails"));
            inserted--;
            assertTrue(failure.contains("SnowKey segment sequence '" + key + "' has no keys left"), failure);
            assertTrue(failure.contains("no range came from " + down.allocator()), "names the allocator: " + failure);
            assertTrue(down.allocator().contains(table.value()) && down.allocator().contains("127.0.0.1:" + proxy.port()), down.allocator());
            assertTrue(failure.contains("segment-fetch-timeout-milliseconds = 1000 ms"), failure);
            assertTrue(failure.contains(": SnowKey could not"), "names the cause, the allocator's last failure: " + failure);

            proxy.restore();
            awaitCondition("an insert succeeds once the database is back", () -> tryInsert(insert));
            // It took the first key of a fresh range: the rest needs no allocator, and the next range is fetched in the
            // background again (waited for as a condition, so a slow fetch on a loaded machine fails nothing here).
            for (int i = 0; i < 15; i++) {
                insert(insert);
            }
            awaitCondition("the next range arrives in the background", () -> sequence.remaining() > STEP - 16);
            for (int i = 0; i < 10; i++) {
                insert(insert);
            }
        }
        List<Long> keys = SegmentYamlFixture.keysInInsertOrder(dataSource, "t_order", "order_id");
        assertEquals(inserted, keys.size());
        SegmentOutageChecks.assertKeysSurvivedTheOutage(key, keys, 2 * STEP, rangeLog().recent(key, 1_000));
    }

    private void insert(final PreparedStatement insert) throws SQLException {
        insert.setString(1, Integer.toString(inserted++));
        insert.executeUpdate();
    }

    /** One insert; false when it failed (its row is not counted). */
    private boolean tryInsert(final PreparedStatement insert) {
        try {
            insert(insert);
            return true;
        } catch (final SQLException ex) {
            inserted--;
            return false;
        }
    }

    private static SegmentSequence sequenceOf(final String key) {
        List<SegmentScope> scopes = SegmentRuntime.get().scopes();
        assertEquals(1, scopes.size(), "one allocator scope: " + scopes);
        return scopes.get(0).sequence(key);
    }

    private JdbcRangeLog rangeLog() {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(database.url());
        pool.setUsername(database.username());
        pool.setPassword(database.password());
        pool.setMaximumPoolSize(1);
        toClose.add(pool);
        return new JdbcRangeLog(pool, new JdbcSegmentSettings(table, false, 5_000L, database.url()));
    }

    private static void awaitCondition(final String what, final BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_MILLIS * 1_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + DEADLINE_MILLIS + " ms: " + what);
            }
            Thread.sleep(20);
        }
    }

    private static String messages(final Throwable failure) {
        StringBuilder chain = new StringBuilder();
        for (Throwable each = failure; each != null; each = each.getCause()) {
            chain.append(each.getMessage()).append(" | ");
        }
        return chain.toString();
    }
}
