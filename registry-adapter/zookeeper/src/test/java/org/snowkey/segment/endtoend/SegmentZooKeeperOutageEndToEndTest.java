package org.snowkey.segment.endtoend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import javax.sql.DataSource;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.segment.SegmentSequence;
import org.snowkey.keygen.segment.SegmentStatus;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.keygen.segment.runtime.SegmentScope;
import org.snowkey.lease.testing.SegmentOutageChecks;
import org.snowkey.segment.store.zookeeper.ZooKeeperRangeLog;

/**
 * The ZooKeeper allocator's server stops for longer than the ranges in memory last, while ShardingSphere-JDBC
 * (Standalone, {@code segment-allocator: zookeeper}) keeps inserting: inserts go on exactly while the runway lasts,
 * then fail naming the key, the allocator, {@code segment-fetch-timeout-milliseconds} and the cause, and succeed again
 * once the server is back (restarted on the same port with its data). Every wait is on a condition.
 */
class SegmentZooKeeperOutageEndToEndTest {

    private static final long STEP = 20;

    private static final long DEADLINE_MILLIS = 90_000;

    @TempDir
    Path dir;

    private int inserted;

    @AfterEach
    void closeScopes() {
        SegmentRuntime.get().closeAll();
    }

    @Test
    @Timeout(240)
    void insertsRideOutTheRunwayThenFailNamingKeyAllocatorAndCauseThenRecover() throws Exception {
        String namespace = "segout" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        String h2Url = "jdbc:h2:mem:" + namespace + ";DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false;MODE=MySQL";
        try (TestingServer server = new TestingServer(true)) {
            Map<String, String> props = new LinkedHashMap<>();
            props.put("segment-allocator", "zookeeper");
            props.put("zookeeper-server-lists", server.getConnectString());
            props.put("zookeeper-namespace", namespace);
            props.put("segment-step-min", Long.toString(STEP));
            props.put("segment-step-max", Long.toString(STEP));
            props.put("segment-prefetch-percent", "50");
            props.put("segment-fetch-timeout-milliseconds", "1000");
            SegmentShardingYaml.createTables(h2Url);
            Path yaml = SegmentShardingYaml.write(dir.resolve("outage.yaml"), h2Url, "", props, props);
            DataSource dataSource = YamlShardingSphereDataSourceFactory.createDataSource(new File(yaml.toString()));
            String key = SegmentShardingYaml.DATABASE + ".t_order";
            try (Connection connection = dataSource.getConnection(); PreparedStatement insert = connection.prepareStatement("INSERT INTO t_order (seq) VALUES (?)")) {
                // The first range: its allocation connects and creates the tables or nodes, which on a loaded machine may take
                // longer than the 1 s fetch timeout: the first insert is retried until it succeeds.
                awaitCondition("the first range arrives", () -> tryInsert(insert));
                // Three quarters of the first range: the second one is fetched in the background meanwhile.
                for (int i = 1; i < 15; i++) {
                    insert(insert);
                }
                SegmentSequence sequence = sequenceOf(key);
                awaitCondition("the second range arrives", () -> sequence.status().rangesFetched() == 2);

                server.stop();
                long runway = sequence.remaining();
                assertEquals(2 * STEP - 15, runway, "the rest of the first range and the whole second one");
                for (long i = 0; i < runway; i++) {
                    insert(insert);
                }
                assertEquals(0, sequence.remaining());
                awaitCondition("the background fetch reports the outage", () -> sequence.status().lastFailure() != null);
                SegmentStatus down = sequence.status();
                String failure = messages(assertThrows(SQLException.class, () -> insert(insert)));
                inserted--;
                assertTrue(failure.contains("SnowKey segment sequence '" + key + "' has no keys left"), failure);
                assertTrue(failure.contains("no range came from " + down.allocator()), "names the allocator: " + failure);
                assertTrue(down.allocator().contains(server.getConnectString()) && down.allocator().contains("/" + namespace + "/snowkey/segments"), down.allocator());
                assertTrue(failure.contains("segment-fetch-timeout-milliseconds = 1000 ms"), failure);
                assertTrue(failure.contains(": SnowKey could not"), "names the cause, the allocator's last failure: " + failure);

                server.restart();
                awaitCondition("an insert succeeds once ZooKeeper is back", () -> tryInsert(insert));
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
            List<Long> keys = SegmentShardingYaml.keysInInsertOrder(dataSource, "t_order", "order_id");
            ((AutoCloseable) dataSource).close();
            assertEquals(inserted, keys.size());
            try (CuratorFramework client = CuratorFrameworkFactory.builder().connectString(server.getConnectString()).retryPolicy(new RetryOneTime(100)).build()) {
                client.start();
                SegmentOutageChecks.assertKeysSurvivedTheOutage(key, keys, 2 * STEP, new ZooKeeperRangeLog(client, namespace).recent(key, 1_000));
            }
        }
    }

    private void insert(final PreparedStatement insert) throws SQLException {
        insert.setInt(1, inserted++);
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
        assertEquals(1, scopes.size(), "both key generators share one allocator scope: " + scopes);
        return scopes.get(0).sequence(key);
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
