package org.snowkey.segment.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.lease.testing.StartValuesFixtures;
import org.snowkey.keygen.segment.runtime.PreparedAllocator;
import org.snowkey.keygen.segment.runtime.SegmentPlanner;
import org.snowkey.store.jdbc.JdbcTableName;

/** {@code segment-allocator: jdbc}: what opening leaves behind when it fails half-way, and what it prints. */
class JdbcSegmentAllocatorProviderTest {

    private static PreparedAllocator prepared(final String table, final String url) {
        Properties props = new Properties();
        props.setProperty("jdbc-url", url);
        props.setProperty("jdbc-table", table);
        JdbcSegmentAllocatorProvider provider = new JdbcSegmentAllocatorProvider();
        return provider.prepare(provider.parse(new PropertyReader(props), SegmentSettings.defaults()), Optional.<ClusterRegistry>empty());
    }

    /** HikariCP starts a housekeeping thread named after the pool ({@code snowkey-segment-<table>:housekeeper}) when the pool is built. */
    private static List<Thread> poolThreads(final String table) {
        return Thread.getAllStackTraces().keySet().stream().filter(each -> each.isAlive() && each.getName().startsWith("snowkey-segment-" + table + ":")).toList();
    }

    @Test
    void anOpenThatFailsAfterBuildingThePoolClosesIt() throws InterruptedException {
        String table = "seg_open_" + Long.toHexString(System.nanoTime());
        PreparedAllocator prepared = prepared(table, "jdbc:h2:mem:" + table + ";DB_CLOSE_DELAY=-1");
        assertThrows(IllegalArgumentException.class, () -> prepared.open(" ", StartValuesFixtures.everyKeyAtOne()), "a blank owner is refused after the pool was built");
        // The pool's thread goes when the pool is closed; on the unfixed code it never does.
        for (int i = 0; i < 200 && !poolThreads(table).isEmpty(); i++) {
            Thread.sleep(50);
        }
        assertTrue(poolThreads(table).isEmpty(), "the pool of a failed open is closed: " + poolThreads(table));
    }

    @Test
    void settingsNeverPrintTheUrlsCredentials() {
        JdbcSegmentSettings settings = new JdbcSegmentSettings(new JdbcTableName("seg"), true, 5_000L, "jdbc:postgresql://alice:s3cretPw@db:5432/app?password=s3cretPw");
        assertFalse(settings.toString().contains("s3cretPw"), settings.toString());
        String table = "seg_str_" + Long.toHexString(System.nanoTime());
        PreparedAllocator prepared = prepared(table, "jdbc:postgresql://alice:s3cretPw@127.0.0.1:5432/app?password=s3cretPw");
        assertFalse(prepared.toString().contains("s3cretPw"), prepared.toString());
        assertFalse(prepared.scopeKey().contains("s3cretPw"), prepared.scopeKey());
        try (var open = prepared.open("pid@host", StartValuesFixtures.everyKeyAtOne())) {
            assertFalse(open.toString().contains("s3cretPw"), open.toString());
            assertFalse(open.describe().contains("s3cretPw"), open.describe());
        }
    }

    /**
     * Two users given only inside the URL may reach two counter tables (an unqualified table lies in the user's schema):
     * one scope for both took every range of both key generators from one of them, ranges the other table's instances
     * never see.
     */
    @Test
    void aUserGivenOnlyInTheUrlIsPartOfTheScope() {
        String orders = prepared("seg_users", "jdbc:postgresql://127.0.0.1:1/app?user=orders_app&password=s3cretPw").scopeKey();
        String billing = prepared("seg_users", "jdbc:postgresql://127.0.0.1:1/app?user=billing_app&password=s3cretPw").scopeKey();
        assertNotEquals(orders, billing);
        assertFalse(orders.contains("s3cretPw"), orders);
    }

    /** A {@code jdbc-url} that cannot apply (no {@code segment-allocator}) is named, its credentials are not. */
    @Test
    void aUrlThatCannotApplyIsQuotedWithoutCredentials() {
        Properties props = new Properties();
        props.setProperty("jdbc-url", "jdbc:postgresql://alice:s3cretPw@db:5432/app?password=s3cretPw");
        InvalidSettingException ex = assertThrows(InvalidSettingException.class, () -> SegmentPlanner.get().parse(props));
        assertTrue(ex.getMessage().contains("jdbc-url") && ex.getMessage().contains("db:5432/app"), ex.getMessage());
        assertFalse(ex.getMessage().contains("s3cretPw"), ex.getMessage());
    }
}
