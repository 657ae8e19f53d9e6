package org.snowkey.lease.endtoend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Optional;
import java.util.Properties;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.snowkey.lease.store.jdbc.TestDatabase;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.runtime.SnowflakePlanner;
import org.snowkey.keygen.runtime.SnowflakeRuntime;

/**
 * Lease records written by someone else (an operator, a bug, a disk) through the public path: props in, lease from
 * a real registry. A corrupt record is never claimed and stays as it is; a record whose {@code reservedUntil} is the
 * largest number must not let a successor start at the current time (its predecessor may have issued anything).
 */
class CorruptAndExtremeRecordsEndToEndTest {

    @Test
    void aCorruptZooKeeperRecordIsNeverClaimed() throws Exception {
        try (TestingServer server = new TestingServer(true);
             CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(100))) {
            client.start();
            byte[] corrupt = "{\"pool\":\"corrupt\",\"workerId\":0,\"owner\":\"x\",\"fencingToken\":3,\"expiresAt\":1,\"reservedUntil\":\"soon\",\"state\":\"RELEASED\"}"
                    .getBytes(StandardCharsets.UTF_8);
            client.create().creatingParentsIfNeeded().forPath("/e2e/snowkey/corrupt/workers/0", corrupt);
            IdGenerator generator = SnowflakeRuntime.get().generator(SnowflakePlanner.get().plan(zookeeper(server, "corrupt", "1"), Optional.empty()), this);
            try {
                // Worker id bits 1: numbers 0 (corrupt) and 1. The generator must take 1.
                generator.nextId();
                assertNotEquals(0, generator.currentGrant().workerId());
                assertArrayEquals(corrupt, client.getData().forPath("/e2e/snowkey/corrupt/workers/0"), "the corrupt record was left as it is");
            } finally {
                SnowflakeRuntime.get().release(this);
            }
        }
    }

    /** Regression: LeaseAcquirer computed the floor as reservedUntil + 1, which overflowed to Long.MIN_VALUE (fixed in f76739e). */
    @Test
    void aZooKeeperRecordReservedUntilTheLargestNumberIsNotReusedFromNow() throws Exception {
        try (TestingServer server = new TestingServer(true);
             CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(100))) {
            client.start();
            client.create().creatingParentsIfNeeded().forPath("/e2e/snowkey/extreme/workers/0", ("{\"pool\":\"extreme\",\"workerId\":0,\"owner\":\"retired\","
                    + "\"fencingToken\":3,\"expiresAt\":1,\"reservedUntil\":" + Long.MAX_VALUE + ",\"state\":\"RELEASED\"}").getBytes(StandardCharsets.UTF_8));
            assertNoReuse(zookeeper(server, "extreme", "1"), 0);
        }
    }

    /** Regression, same cause, through the JDBC store on PostgreSQL (skipped without it). */
    @Test
    void aPostgreSqlRowReservedUntilTheLargestNumberIsNotReusedFromNow() throws Exception {
        TestDatabase.POSTGRESQL.assumeAvailable();
        String url = TestDatabase.POSTGRESQL.url();
        String table = "snowkey_e2e_extreme_" + Long.toString(System.nanoTime(), 36);
        Properties props = new Properties();
        props.setProperty("lease-registry", "jdbc");
        props.setProperty("jdbc-url", url);
        props.setProperty("jdbc-username", "postgres");
        props.setProperty("jdbc-table", table);
        props.setProperty("lease-pool", "extreme");
        props.setProperty("worker-id-bits", "1");
        props.setProperty("lease-acquire-timeout-milliseconds", "2000");
        props.setProperty("instance-id", "e2e");
        // Create the table through SnowKey itself (first holder takes worker id 0 and releases it), then mark the row.
        IdGenerator first = SnowflakeRuntime.get().generator(SnowflakePlanner.get().plan(props, Optional.empty()), "first");
        first.nextId();
        int workerId = first.currentGrant().workerId();
        SnowflakeRuntime.get().release("first");
        try (Connection connection = DriverManager.getConnection(url, "postgres", ""); Statement statement = connection.createStatement()) {
            assertTrue(statement.executeUpdate("UPDATE " + table + " SET reserved_until = " + Long.MAX_VALUE + ", expires_at = 1, state = 'RELEASED' WHERE pool = 'extreme'"
                    + " AND worker_id = " + workerId) == 1);
            try {
                assertNoReuse(props, workerId);
            } finally {
                statement.executeUpdate("DROP TABLE " + table);
            }
        }
    }

    private void assertNoReuse(final Properties props, final int marked) {
        try {
            IdGenerator generator = SnowflakeRuntime.get().generator(SnowflakePlanner.get().plan(props, Optional.empty()), this);
            LeaseGrant grant;
            try {
                grant = generator.currentGrant();
            } catch (final RuntimeException refused) {
                // Refusing the number (corrupt, or pool exhausted) is fine: it must say why.
                assertFalse(refused.getMessage() == null || refused.getMessage().isBlank());
                return;
            }
            assertFalse(grant.workerId() == marked && grant.floorMillis() <= Long.MAX_VALUE - 1 && grant.floorMillis() < System.currentTimeMillis() + 86_400_000L,
                    "worker id " + marked + " was reserved until Long.MAX_VALUE (" + Long.MAX_VALUE + "), yet a successor may issue from " + grant
                            + " (LeaseAcquirer.claim: max(now, reservedUntil + 1) overflows)");
        } finally {
            SnowflakeRuntime.get().release(this);
        }
    }

    private static Properties zookeeper(final TestingServer server, final String pool, final String bits) {
        Properties props = new Properties();
        props.setProperty("lease-registry", "zookeeper");
        props.setProperty("zookeeper-server-lists", server.getConnectString());
        props.setProperty("zookeeper-namespace", "e2e");
        props.setProperty("lease-pool", pool);
        props.setProperty("worker-id-bits", bits);
        props.setProperty("lease-acquire-timeout-milliseconds", "3000");
        props.setProperty("instance-id", "e2e-" + pool);
        return props;
    }
}
