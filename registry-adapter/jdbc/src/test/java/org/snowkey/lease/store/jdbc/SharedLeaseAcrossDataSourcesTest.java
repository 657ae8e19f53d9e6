package org.snowkey.lease.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.segment.endtoend.SegmentYamlFixture;

/**
 * Two ShardingSphere-JDBC 5.5.2 data sources of one logical database in one JVM, from real YAML, whose
 * {@code IMPROVED_SNOWFLAKE} key generators share one worker id lease from a JDBC lease table: closing one of them,
 * even twice, releases nothing the other still issues from; the lease is released when the last one closes, with a
 * high-water mark that a successor starts above.
 */
class SharedLeaseAcrossDataSourcesTest {

    private static final IdLayout LAYOUT = IdLayout.defaults();

    @TempDir
    Path directory;

    @AfterEach
    void closeGenerators() {
        SnowflakeRuntime.get().closeAll();
    }

    @Test
    @Timeout(180)
    void aDataSourceClosedTwiceLeavesTheOtherIssuingOnTheHeldLeaseAndTheLastCloseReleasesItForASuccessor() throws Exception {
        String leaseUrl = "jdbc:h2:mem:" + SegmentYamlFixture.randomName() + "_leases;DB_CLOSE_DELAY=-1";
        SegmentYamlFixture fixture = new SegmentYamlFixture(directory, SegmentYamlFixture.randomName(), "IMPROVED_SNOWFLAKE",
                Map.of("lease-registry", "jdbc", "jdbc-url", leaseUrl, "jdbc-username", "sa", "lease-pool", "shared-by-two"));
        List<Long> issued = new ArrayList<>();
        DataSource staying = fixture.open();
        DataSource closing = fixture.open();
        issued.addAll(insertOrders(staying, 0, 50));
        issued.addAll(insertOrders(closing, 50, 50));
        LeaseRow held = LeaseRow.only(leaseUrl);
        assertEquals("HELD", held.state(), "both data sources issue on one lease: " + held);

        ((AutoCloseable) closing).close();
        ((AutoCloseable) closing).close();

        LeaseRow afterClose = LeaseRow.only(leaseUrl);
        assertEquals(held.fencingToken() + " HELD", afterClose.fencingToken() + " " + afterClose.state(),
                "closing one data source twice released (or re-took) the lease the other still issues from: " + afterClose);
        issued.addAll(insertOrders(staying, 100, 200));
        LeaseRow stillHeld = LeaseRow.only(leaseUrl);
        assertEquals(held.fencingToken() + " HELD", stillHeld.fencingToken() + " " + stillHeld.state(),
                "the staying data source issued on a lease other than the one it held: " + stillHeld);
        assertEquals(issued.size(), new HashSet<>(issued).size(), "no key twice across the two data sources");
        assertEquals(issued.size(), SegmentYamlFixture.keys(staying, "t_order", "order_id").size(), "every insert landed");

        ((AutoCloseable) staying).close();

        long highestIssued = issued.stream().mapToLong(Long::longValue).max().orElseThrow();
        LeaseRow released = LeaseRow.only(leaseUrl);
        assertEquals("RELEASED", released.state(), "the last data source closed: " + released);
        assertTrue(released.reservedUntil() >= LAYOUT.decode(highestIssued).timestamp().toEpochMilli(),
                "released with a high-water mark " + released.reservedUntil() + " below the highest id issued, " + LAYOUT.decode(highestIssued));

        DataSource successor = fixture.open();
        try {
            List<Long> next = insertOrders(successor, 300, 20);
            long lowestNext = next.stream().mapToLong(Long::longValue).min().orElseThrow();
            assertTrue(lowestNext > highestIssued, "the successor issued " + LAYOUT.decode(lowestNext) + ", not above " + LAYOUT.decode(highestIssued));
        } finally {
            ((AutoCloseable) successor).close();
        }
    }

    /** Inserts {@code count} orders whose notes are {@code first}, {@code first + 1}, ...; the keys ShardingSphere generated. */
    private static List<Long> insertOrders(final DataSource dataSource, final int first, final int count) throws Exception {
        List<Long> result = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO t_order (note) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
            for (int i = first; i < first + count; i++) {
                insert.setString(1, Integer.toString(i));
                insert.executeUpdate();
                try (ResultSet keys = insert.getGeneratedKeys()) {
                    assertTrue(keys.next(), "ShardingSphere returned no generated key");
                    result.add(keys.getLong(1));
                }
            }
        }
        return result;
    }

    /** The one row of the lease table, read beside SnowKey. */
    private record LeaseRow(int workerId, long fencingToken, long reservedUntil, String state) {

        static LeaseRow only(final String leaseUrl) throws Exception {
            Set<LeaseRow> rows = new HashSet<>();
            try (Connection connection = DriverManager.getConnection(leaseUrl, "sa", "");
                 Statement statement = connection.createStatement();
                 ResultSet result = statement.executeQuery("SELECT worker_id, fencing_token, reserved_until, state FROM snowkey_worker_lease")) {
                while (result.next()) {
                    rows.add(new LeaseRow(result.getInt(1), result.getLong(2), result.getLong(3), result.getString(4)));
                }
            }
            assertEquals(1, rows.size(), "one worker id leased for both data sources: " + rows);
            return rows.iterator().next();
        }
    }
}
