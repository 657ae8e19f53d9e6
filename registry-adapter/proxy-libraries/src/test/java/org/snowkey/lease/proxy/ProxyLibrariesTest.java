package org.snowkey.lease.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.runtime.SnowflakePlanner;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.keygen.segment.SegmentSequence;
import org.snowkey.keygen.segment.runtime.SegmentPlanner;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.keygen.segment.runtime.SegmentScope;

/**
 * The ZooKeeper and JDBC leases on the libraries ShardingSphere-Proxy 5.5.2 ships (Curator 5.7.0, ZooKeeper 3.9.2,
 * HikariCP 4.0.3, pgjdbc 42.7.2; SnowKey no longer uses the Proxy's Jackson), not on those SnowKey builds with: a lease is taken, keys carry
 * it, and closing releases it in the store; and the segment allocators take ranges on them.
 */
class ProxyLibrariesTest {

    @AfterEach
    void releaseLeases() {
        SnowflakeRuntime.get().closeAll();
        SegmentRuntime.get().closeAll();
    }

    @Test
    void zooKeeperSegmentRangesOnCurator570() throws Exception {
        try (TestingServer zooKeeper = new TestingServer(true);
             CuratorFramework client = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), new RetryOneTime(200))) {
            client.start();
            issueSegmentKeys(props("segment-allocator", "zookeeper", "zookeeper-server-lists", zooKeeper.getConnectString(), "zookeeper-namespace", "proxy"));
            assertEquals("2701", new String(client.getData().forPath("/proxy/snowkey/segments/proxy.t_order"), StandardCharsets.UTF_8),
                    "the counter stands after the ranges taken");
        }
    }

    @Test
    void jdbcSegmentRangesOnHikariCp403AndPgJdbc4272() throws Exception {
        String url = System.getProperty("snowkey.test.postgresql.url", "jdbc:postgresql://127.0.0.1:5432/test");
        assumePostgreSqlReachable(url);
        String table = "snowkey_proxy_segment";
        try (Connection connection = DriverManager.getConnection(url, "postgres", ""); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
            statement.execute("DROP TABLE IF EXISTS " + table + "_log");
        }
        issueSegmentKeys(props("segment-allocator", "jdbc", "jdbc-url", url, "jdbc-username", "postgres", "jdbc-table", table));
        try (Connection connection = DriverManager.getConnection(url, "postgres", "");
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT COUNT(*), MIN(range_first), MAX(range_last) FROM " + table + "_log")) {
            assertTrue(rows.next());
            assertEquals(List.of(3L, 1L, 2700L), List.of(rows.getLong(1), rows.getLong(2), rows.getLong(3)), "three logged ranges of 900");
        }
    }

    /** Issues 2,001 keys of one sequence over ranges of 900 (three allocations); dense and increasing from 1. */
    private static void issueSegmentKeys(final Properties props) {
        props.setProperty("segment-step-min", "900");
        props.setProperty("segment-step-max", "900");
        // The next range is fetched at 99% of the current one: the third range is the last one asked for.
        props.setProperty("segment-prefetch-percent", "99");
        SegmentPlanner planner = SegmentPlanner.get();
        SegmentScope scope = SegmentRuntime.get().join(planner.plan(planner.parse(props), Optional.empty()), new Object());
        SegmentSequence sequence = scope.sequence("proxy.t_order");
        List<Long> keys = new ArrayList<>(sequence.nextIds(2_000));
        keys.add(sequence.nextId());
        for (int i = 0; i < keys.size(); i++) {
            assertEquals(i + 1L, keys.get(i), "dense and increasing from 1");
        }
        SegmentRuntime.get().closeAll();
    }

    @Test
    void theClassPathHoldsTheProxysLibraryVersions() {
        Map<String, String> expected = Map.of(
                "org.apache.curator/curator-framework", "5.7.0",
                "org.apache.zookeeper/zookeeper", "3.9.2",
                "com.zaxxer/HikariCP", "4.0.3");
        expected.forEach((artifact, version) -> assertEquals(version, mavenVersion(artifact), artifact));
        // pgjdbc's jar carries no Maven metadata; it states its version itself.
        assertEquals("42.7.2", org.postgresql.util.DriverInfo.DRIVER_VERSION);
    }

    @Test
    void zooKeeperLeaseOnCurator570AndZooKeeper392() throws Exception {
        try (TestingServer zooKeeper = new TestingServer(true);
             CuratorFramework client = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), new RetryOneTime(200))) {
            client.start();
            Properties props = props("lease-registry", "zookeeper", "zookeeper-server-lists", zooKeeper.getConnectString(),
                    "zookeeper-namespace", "proxy", "lease-pool", "zk");
            int workerId = issueAndRelease(props);
            String node = new String(client.getData().forPath("/proxy/snowkey/zk/workers/" + workerId), StandardCharsets.UTF_8);
            assertTrue(node.contains("\"RELEASED\""), "released in ZooKeeper: " + node);
        }
    }

    @Test
    void jdbcLeaseOnHikariCp403AndH2() throws Exception {
        String url = "jdbc:h2:mem:proxy_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
        assertReleasedInTable(url, "sa", "", issueAndRelease(props("lease-registry", "jdbc", "jdbc-url", url, "jdbc-username", "sa", "lease-pool", "h2")), "h2");
    }

    @Test
    void jdbcLeaseOnHikariCp403AndPgJdbc4272() throws Exception {
        String url = System.getProperty("snowkey.test.postgresql.url", "jdbc:postgresql://127.0.0.1:5432/test");
        assumePostgreSqlReachable(url);
        String pool = "proxy-" + UUID.randomUUID().toString().substring(0, 8);
        String table = "snowkey_proxy_lease";
        int workerId = issueAndRelease(props("lease-registry", "jdbc", "jdbc-url", url, "jdbc-username", "postgres", "jdbc-table", table, "lease-pool", pool));
        assertReleasedInTable(url, "postgres", "", workerId, pool, table);
    }

    /** Takes the lease, issues keys on it, releases it; returns the worker id. */
    private static int issueAndRelease(final Properties props) {
        IdGenerator generator = SnowflakeRuntime.get().generator(SnowflakePlanner.get().plan(props, Optional.empty()));
        int workerId = generator.currentGrant().workerId();
        Set<Long> ids = new HashSet<>(generator.nextIds(2_000));
        ids.add(generator.nextId());
        assertEquals(2_001, ids.size());
        assertTrue(ids.stream().allMatch(each -> generator.decode(each).workerId() == workerId), "every key carries the leased worker id " + workerId);
        SnowflakeRuntime.get().closeAll();
        return workerId;
    }

    private static void assertReleasedInTable(final String url, final String user, final String password, final int workerId, final String pool) throws SQLException {
        assertReleasedInTable(url, user, password, workerId, pool, "snowkey_worker_lease");
    }

    private static void assertReleasedInTable(final String url, final String user, final String password, final int workerId, final String pool,
                                              final String table) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, user, password);
             PreparedStatement select = connection.prepareStatement("SELECT state FROM " + table + " WHERE pool = ? AND worker_id = ?")) {
            select.setString(1, pool);
            select.setInt(2, workerId);
            try (ResultSet rows = select.executeQuery()) {
                assertTrue(rows.next(), "a row for worker id " + workerId);
                assertEquals("RELEASED", rows.getString(1));
            }
        }
    }

    private static void assumePostgreSqlReachable(final String url) {
        DriverManager.setLoginTimeout(3);
        try (Connection ignored = DriverManager.getConnection(url, "postgres", "")) {
            return;
        } catch (final SQLException ex) {
            String reason = "PostgreSQL is not reachable at " + url + " (" + ex.getMessage() + "): the pgjdbc 42.7.2 lease test is skipped";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail("CI=true and " + reason);
            }
            Assumptions.abort(reason);
        }
    }

    private static Properties props(final String... keysAndValues) {
        Properties result = new Properties();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            result.setProperty(keysAndValues[i], keysAndValues[i + 1]);
        }
        return result;
    }

    private static String mavenVersion(final String groupAndArtifact) {
        String resource = "META-INF/maven/" + groupAndArtifact + "/pom.properties";
        try (InputStream in = ProxyLibrariesTest.class.getClassLoader().getResourceAsStream(resource)) {
            assertNotNull(in, resource + " on the class path");
            Properties props = new Properties();
            props.load(in);
            return props.getProperty("version");
        } catch (final IOException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
