package org.snowkey.segment.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.lease.testing.StartValuesFixtures;
import org.snowkey.lease.admin.LeaseCli;
import org.snowkey.lease.admin.RangeAdmin;
import org.snowkey.lease.store.jdbc.TestDatabase;
import org.snowkey.store.jdbc.JdbcTableName;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * {@code LeaseCli --registry jdbc ranges | reconcile} on ranges a real {@link JdbcRangeAllocator} handed out (H2 and
 * PostgreSQL): listing, gaps reported as gaps with exit 0, and an overlap planted by hand failing loudly with exit 3.
 */
class JdbcRangeCliTest {

    private static final String KEY = "shop_db.t_order";

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private final List<AutoCloseable> closing = new ArrayList<>();

    private TestDatabase database;

    private JdbcSegmentSettings settings;

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
        if (settings != null) {
            database.dropQuietly(settings.table());
            database.dropQuietly(settings.logTable());
        }
    }

    /** Five ranges of ten for {@link #KEY} and one for another key, from the allocator as an application takes them. */
    private List<NumberRange> allocate(final TestDatabase db) {
        database = db;
        database.assumeAvailable();
        JdbcTableName table = TestDatabase.uniqueTable("segcli");
        settings = new JdbcSegmentSettings(table, true, 5_000L, database.url());
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database.url());
        config.setUsername(database.username());
        config.setPassword(database.password());
        config.setMaximumPoolSize(2);
        HikariDataSource pool = new HikariDataSource(config);
        closing.add(pool);
        JdbcRangeAllocator allocator = new JdbcRangeAllocator(pool, settings, "app-1@host", StartValuesFixtures.everyKeyAtOne());
        List<NumberRange> ranges = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ranges.add(allocator.allocate(KEY, 10));
        }
        allocator.allocate("shop_db.t_item", 100);
        return ranges;
    }

    private int run(final String... command) {
        List<String> args = new ArrayList<>(List.of("--registry", "jdbc", "--url", database.url(), "--username", database.username(), "--table", settings.table().value()));
        args.addAll(List.of(command));
        Map<String, String> environment = database.password().isEmpty() ? Map.of() : Map.of("SNOWKEY_JDBC_PASSWORD", database.password());
        return LeaseCli.run(args.toArray(String[]::new), environment, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @EnumSource(value = TestDatabase.class, names = {"H2", "POSTGRESQL"})
    void rangesListsTheMostRecentRangesOfAKeyAndWithoutAKeyEveryKey(final TestDatabase db) {
        List<NumberRange> ranges = allocate(db);
        assertEquals(0, run("ranges", "--key", KEY, "--limit", "3"), err());
        String listing = out();
        assertTrue(listing.contains("segment key '" + KEY + "'") && listing.contains("next value 51"), listing);
        assertFalse(listing.matches("(?s).*\\n" + ranges.get(1).first() + "\\s+" + ranges.get(1).last() + "\\s.*"), "older than the limit: " + listing);
        for (NumberRange each : ranges.subList(2, 5)) {
            assertTrue(listing.matches("(?s).*\\n" + each.first() + "\\s+" + each.last() + "\\s+10\\s+app-1@host\\s.*"), listing);
        }
        out.reset();
        assertEquals(0, run("ranges"), err());
        assertTrue(out().contains(KEY) && out().contains("shop_db.t_item") && out().contains("2 segment key(s)"), out());
    }

    @ParameterizedTest
    @EnumSource(value = TestDatabase.class, names = {"H2", "POSTGRESQL"})
    void reconcileReportsAGapAsAGapAndSucceeds(final TestDatabase db) {
        List<NumberRange> ranges = allocate(db);
        assertEquals(0, run("reconcile"), err());
        assertTrue(out().contains("key '" + KEY + "': 5 ranges from 1 to 50, 0 gaps, 0 overlaps (OK)"), out());
        // A range whose log row is gone looks like one handed out and never logged: numbers nobody issued.
        database.execute("DELETE FROM " + settings.logTable() + " WHERE seq_key = '" + KEY + "' AND range_first = " + ranges.get(2).first());
        out.reset();
        assertEquals(0, run("reconcile", "--key", KEY), err());
        assertTrue(out().contains("1 gaps, 0 overlaps (OK)") && out().contains("gap 21..30"), out());
        assertTrue(err().isEmpty(), err());
    }

    @ParameterizedTest
    @EnumSource(value = TestDatabase.class, names = {"H2", "POSTGRESQL"})
    void reconcileFailsLoudlyOnAnOverlapPlantedByHand(final TestDatabase db) {
        allocate(db);
        // A second holder of 45..54: numbers 45..50 were handed out already.
        database.execute("INSERT INTO " + settings.logTable() + " (seq_key, range_first, range_last, owner, allocated_at) VALUES ('" + KEY
                + "', 45, 54, 'intruder@host', 0)");
        assertEquals(RangeAdmin.OVERLAP, run("reconcile"), out());
        assertTrue(err().contains("OVERLAP") && err().contains("RECONCILIATION FAILED: 1 of 2 key(s)"), err());
        assertTrue(out().contains("key 'shop_db.t_item': 1 ranges from 1 to 100, 0 gaps, 0 overlaps (OK)"), "other keys still reported: " + out());
        assertTrue(out().contains("(BROKEN)") && out().contains("OVERLAP ranges 41..50 and 45..54"), out());
    }

    @ParameterizedTest
    @EnumSource(value = TestDatabase.class, names = {"H2"})
    void aCounterLoweredByHandIsAnOverlapToCome(final TestDatabase db) {
        allocate(db);
        database.execute("UPDATE " + settings.table() + " SET next_value = 31 WHERE seq_key = '" + KEY + "'");
        assertEquals(RangeAdmin.OVERLAP, run("reconcile", "--key", KEY), out());
        assertTrue(err().contains("the counter of key '" + KEY + "' is at 31"), err());
    }

    @ParameterizedTest
    @EnumSource(value = TestDatabase.class, names = {"H2"})
    void unknownKeysBadLimitsAndLeaseOptionsAreRefusedByName(final TestDatabase db) {
        allocate(db);
        assertEquals(1, run("ranges", "--key", "shop_db.t_nothing"));
        assertTrue(err().contains("'shop_db.t_nothing' has no counter") && err().contains(KEY), err());
        err.reset();
        assertEquals(2, run("ranges", "--key", KEY, "--limit", "0"));
        assertTrue(err().contains("--limit 0 is not allowed"), err());
        err.reset();
        assertEquals(2, run("reconcile", "--pool", "orders"));
        assertTrue(err().contains("--pool does not apply to reconcile"), err());
        err.reset();
        assertEquals(2, run("reconcile", "--password", "x"));
        assertTrue(err().contains("--password is not accepted"), err());
    }
}
