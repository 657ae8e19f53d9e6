package org.snowkey.keygen.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.sql.DataSource;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.layout.DecodedId;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.keygen.shardingsphere.KeyGeneratorFixtures;

/**
 * What {@code IMPROVED_SNOWFLAKE} must do on every ShardingSphere line, through that line's real ShardingSphere-JDBC
 * reading real YAML over H2, with worker ids leased from a JDBC lease table. Each adapter's test extends it and
 * says how its line opens a YAML file.
 *
 * <p>Keys are decoded, not only counted: ShardingSphere 5.3 silently falls back to its own {@code SNOWFLAKE} for
 * a key generator type it does not know, and those keys decode to another epoch and worker id.
 */
public abstract class LineContract {

    private static final int INSERTS_PER_TABLE = 200;

    @TempDir
    protected Path directory;

    protected final H2LeaseTable leases = new H2LeaseTable();

    private final List<AutoCloseable> opened = new ArrayList<>();

    /** {@code schemaName} (5.1) or {@code databaseName} (5.2 on). */
    protected abstract String databaseNameKey();

    /**
     * The {@code mode:} block of this line for Cluster mode on ZooKeeper, with {@code overwrite} where the line has it,
     * or null where this build cannot run the line's ZooKeeper repository (the test is then skipped, saying why).
     *
     * @param serverLists {@code host:port} of the ZooKeeper
     * @param namespace the Cluster mode namespace
     */
    protected abstract String clusterModeOnZooKeeper(String serverLists, String namespace);

    /** Why {@link #clusterModeOnZooKeeper} returns null on this line. */
    protected String whyNoClusterMode() {
        return "";
    }

    /** Whether this line's key generators are told the table (5.5 on); before, SNOWKEY_SEGMENT needs {@code segment-key}. */
    protected boolean keyGeneratorKnowsTheTable() {
        return false;
    }

    /** Opens the YAML file with this line's ShardingSphere-JDBC. */
    protected abstract DataSource createDataSource(Path yaml) throws Exception;

    protected final DataSource open(final LineFixture fixture) throws Exception {
        DataSource result = createDataSource(fixture.write(directory));
        if (result instanceof AutoCloseable closeable) {
            opened.add(closeable);
        }
        return result;
    }

    @AfterEach
    void closeDataSourcesAndReleaseLeases() throws Exception {
        for (AutoCloseable each : opened) {
            each.close();
        }
        SnowflakeRuntime.get().closeAll();
        SegmentRuntime.get().closeAll();
        KeyGeneratorFixtures.forgetSeenClusterRegistries();
    }

    @Test
    void singleAndMultiRowInsertsGetKeysOfTheLeasedWorkerIdAndOfNow() throws Exception {
        LineFixture fixture = new LineFixture(databaseNameKey())
                .keyGenerator("snowkey", "IMPROVED_SNOWFLAKE", leases.props("single"))
                .table(LineFixture.ORDER, "snowkey");
        long before = System.currentTimeMillis();
        DataSource dataSource = open(fixture);
        List<Integer> held = leases.heldWorkerIds("single");
        assertEquals(1, held.size(), "the lease is taken at start-up: " + held);
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            assertEquals(1, statement.executeUpdate("INSERT INTO t_order (user_id, note) VALUES (7, 'single')"));
            assertEquals(4, statement.executeUpdate("INSERT INTO t_order (user_id, note) VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')"));
        }
        assertKeysOfWorkerSince(fixture.keys(LineFixture.ORDER), 5, held.get(0), before);
    }

    /**
     * Asserts {@code count} distinct keys that decode to {@code workerId} and to a time since {@code beforeMillis}.
     * The time cache may date a key up to max-time-cache-milliseconds (10 s) before the insert; ShardingSphere's
     * own SNOWFLAKE keys decode years away (another epoch).
     */
    public static void assertKeysOfWorkerSince(final List<Long> keys, final int count, final int workerId, final long beforeMillis) {
        assertEquals(count, new HashSet<>(keys).size(), count + " distinct keys: " + keys);
        long after = System.currentTimeMillis();
        for (long each : keys) {
            DecodedId decoded = IdLayout.defaults().decode(each);
            assertEquals(workerId, decoded.workerId(), "key " + each + " carries the leased worker id: " + decoded);
            long millis = decoded.timestamp().toEpochMilli();
            assertTrue(millis >= beforeMillis - 10_000 && millis <= after, "key " + each + " is SnowKey's, dated in the test: " + decoded);
        }
    }

    @Test
    void clusterModeLeasesTheWorkerIdFromTheModesZooKeeper() throws Exception {
        Assumptions.assumeTrue(clusterModeOnZooKeeper("127.0.0.1:2181", "line_ns") != null, this::whyNoClusterMode);
        try (TestingServer zooKeeper = new TestingServer(true);
             CuratorFramework client = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), new RetryOneTime(200))) {
            client.start();
            // No lease-registry and no ZooKeeper props: SnowKey takes both from the mode configuration.
            LineFixture fixture = new LineFixture(databaseNameKey())
                    .mode(clusterModeOnZooKeeper(zooKeeper.getConnectString(), "line_ns"))
                    .keyGenerator("snowkey", "IMPROVED_SNOWFLAKE", Map.of())
                    .table(LineFixture.ORDER, "snowkey");
            long before = System.currentTimeMillis();
            DataSource dataSource = open(fixture);
            List<String> workers = client.getChildren().forPath("/line_ns/snowkey/default/workers");
            assertEquals(1, workers.size(), "one lease node in the mode's ZooKeeper: " + workers);
            try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
                statement.executeUpdate("INSERT INTO t_order (user_id, note) VALUES (1, 'a'), (2, 'b'), (3, 'c')");
            }
            assertKeysOfWorkerSince(fixture.keys(LineFixture.ORDER), 3, Integer.parseInt(workers.get(0)), before);
            for (AutoCloseable each : opened) {
                each.close();
            }
            opened.clear();
            SnowflakeRuntime.get().closeAll();
            KeyGeneratorFixtures.forgetSeenClusterRegistries();
        }
    }

    @Test
    void eachTableWithItsOwnKeyGeneratorAndPoolStaysBalancedUnderAlternatingInserts() throws Exception {
        LineFixture fixture = new LineFixture(databaseNameKey())
                .keyGenerator("orders", "IMPROVED_SNOWFLAKE", leases.props("orders"))
                .keyGenerator("items", "IMPROVED_SNOWFLAKE", leases.props("items"))
                .table(LineFixture.ORDER, "orders")
                .table(LineFixture.ITEM, "items");
        insertAlternating(open(fixture));
        for (String table : List.of(LineFixture.ORDER, LineFixture.ITEM)) {
            List<Long> keys = fixture.keys(table);
            assertEquals(INSERTS_PER_TABLE, new HashSet<>(keys).size());
            assertEquals(INSERTS_PER_TABLE / 2, keys.stream().filter(each -> each % 2 == 0).count(), table + ": id % 2 splits evenly");
            int pool = leases.heldWorkerIds(LineFixture.ORDER.equals(table) ? "orders" : "items").get(0);
            assertTrue(keys.stream().allMatch(each -> IdLayout.defaults().decode(each).workerId() == pool), table + " keys carry its pool's worker id");
        }
    }

    @Test
    void tablesSharingOneKeyGeneratorNeverShareAKeyAndStayBalanced() throws Exception {
        // One key generator is one id space on every line with the default sequence-scope (docs/design.md, "One id space
        // per worker id"): the timestamp and high sequence of every key come from one counter per worker id, and only
        // the low bit is a cycle per table. Where the key generator is told the table (5.5), each table alternates
        // id % 2 on its own; where it is not (5.1 to 5.4), the tables share one cycle, balanced over both together.
        LineFixture fixture = new LineFixture(databaseNameKey())
                .keyGenerator("snowkey", "IMPROVED_SNOWFLAKE", leases.props("shared"))
                .table(LineFixture.ORDER, "snowkey")
                .table(LineFixture.ITEM, "snowkey");
        insertAlternating(open(fixture));
        List<Long> orders = fixture.keys(LineFixture.ORDER);
        List<Long> items = fixture.keys(LineFixture.ITEM);
        Set<Long> all = new HashSet<>(orders);
        all.addAll(items);
        assertEquals(2 * INSERTS_PER_TABLE, all.size(), "no key repeats across the two tables");
        assertEquals(INSERTS_PER_TABLE, all.stream().filter(each -> each % 2 == 0).count(), "balanced over both tables together");
        if (keyGeneratorKnowsTheTable()) {
            assertEquals(INSERTS_PER_TABLE / 2, orders.stream().filter(each -> each % 2 == 0).count(), "t_order alone alternates id % 2");
            assertEquals(INSERTS_PER_TABLE / 2, items.stream().filter(each -> each % 2 == 0).count(), "t_order_item alone alternates id % 2");
        }
    }

    @Test
    void shardingSpheresOwnSnowflakeStillStartsWithSnowKeysJarsOnTheClassPath() throws Exception {
        // snowkey-keygen-plugin's 5.5 service registrations reach every line; they must not break its start-up.
        LineFixture fixture = new LineFixture(databaseNameKey())
                .keyGenerator("stock", "SNOWFLAKE", Map.of())
                .table(LineFixture.ORDER, "stock");
        assertTrue(insertReturningKey(open(fixture)) > 0);
        assertEquals(1, fixture.keys(LineFixture.ORDER).size());
    }

    @Test
    void everyCopyOfAnInterfaceSnowKeyStandsInForDeclaresTheSame() throws Exception {
        // On a line that has its own copy, the class path decides which one loads: both must declare the same.
        for (String each : StandInInterfaces.NAMES) {
            List<URL> copies = StandInInterfaces.copies(each, getClass().getClassLoader());
            assertTrue(copies.stream().anyMatch(StandInInterfaces::isSnowKeys), "SnowKey's stand-in is on the class path: " + copies);
            if (copies.size() > 1) {
                Map<String, String> declarations = StandInInterfaces.declarations(each, copies, getClass().getClassLoader());
                assertEquals(1, new HashSet<>(declarations.values()).size(), each + " differs between copies: " + declarations);
            }
        }
    }

    @Test
    void anInvalidPropFailsStartUpNamingPropAndValue() throws Exception {
        LineFixture fixture = new LineFixture(databaseNameKey())
                .keyGenerator("snowkey", "IMPROVED_SNOWFLAKE", Map.of("worker-id-bits", "99"))
                .table(LineFixture.ORDER, "snowkey");
        Throwable failure = assertThrows(Throwable.class, () -> open(fixture));
        String messages = messages(failure);
        assertTrue(messages.contains("worker-id-bits") && messages.contains("99"), messages);
    }

    /** SNOWKEY_SEGMENT props over an in-memory H2 range table of this test (one JVM; enough to test the line's glue). */
    protected final Map<String, String> segmentProps(final String... more) {
        Map<String, String> props = new java.util.LinkedHashMap<>();
        props.put("segment-allocator", "jdbc");
        props.put("jdbc-url", "jdbc:h2:mem:ranges_" + java.util.UUID.randomUUID().toString().replace("-", "").substring(0, 12) + ";DB_CLOSE_DELAY=-1");
        props.put("jdbc-username", "sa");
        props.put("segment-step-min", "16");
        props.put("segment-step-max", "16");
        for (int i = 0; i + 1 < more.length; i += 2) {
            props.put(more[i], more[i + 1]);
        }
        return props;
    }

    @Test
    void segmentKeysAreDenseAndIncreasingFromSingleAndMultiRowInserts() throws Exception {
        LineFixture fixture = new LineFixture(databaseNameKey())
                .keyGenerator("dense", "SNOWKEY_SEGMENT", segmentProps("segment-key", "orders", "segment-start-value", "1000"))
                .table(LineFixture.ORDER, "dense");
        DataSource dataSource = open(fixture);
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            assertEquals(1, statement.executeUpdate("INSERT INTO t_order (user_id, note) VALUES (7, 'single')"));
            assertEquals(4, statement.executeUpdate("INSERT INTO t_order (user_id, note) VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')"));
            for (int i = 0; i < 20; i++) {
                statement.executeUpdate("INSERT INTO t_order (user_id, note) VALUES (" + i + ", 'more')");
            }
        }
        List<Long> keys = new ArrayList<>(fixture.keys(LineFixture.ORDER));
        keys.sort(null);
        List<Long> expected = new ArrayList<>();
        for (long each = 1000; each < 1025; each++) {
            expected.add(each);
        }
        assertEquals(expected, keys, "SnowKey's dense keys from the start value, across two ranges of 16, none skipped in one process");
    }

    @Test
    void segmentWithoutTheTableNeedsASegmentKeyAndSaysSo() throws Exception {
        Assumptions.assumeFalse(keyGeneratorKnowsTheTable(), "this line names the table: each logic table has a sequence of its own");
        LineFixture fixture = new LineFixture(databaseNameKey())
                .keyGenerator("dense", "SNOWKEY_SEGMENT", segmentProps())
                .table(LineFixture.ORDER, "dense");
        String messages = messages(assertThrows(Throwable.class, () -> open(fixture)));
        assertTrue(messages.contains("'segment-key'") && messages.contains("required on ShardingSphere"), messages);
    }

    private static String messages(final Throwable failure) {
        StringBuilder result = new StringBuilder();
        for (Throwable each = failure; each != null; each = each.getCause()) {
            result.append(each).append(" / ");
        }
        return result.toString();
    }

    private static void insertAlternating(final DataSource dataSource) throws Exception {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement order = connection.prepareStatement("INSERT INTO t_order (user_id, note) VALUES (?, 'o')");
             PreparedStatement item = connection.prepareStatement("INSERT INTO t_order_item (user_id, note) VALUES (?, 'i')")) {
            for (int i = 0; i < INSERTS_PER_TABLE; i++) {
                order.setInt(1, i);
                order.executeUpdate();
                item.setInt(1, i);
                item.executeUpdate();
            }
        }
    }

    /** The generated key of a single-row INSERT, as ShardingSphere returns it. */
    protected static long insertReturningKey(final DataSource dataSource) throws Exception {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO t_order (user_id, note) VALUES (1, 'x')", Statement.RETURN_GENERATED_KEYS)) {
            insert.executeUpdate();
            try (ResultSet keys = insert.getGeneratedKeys()) {
                assertTrue(keys.next(), "ShardingSphere returns the generated key");
                return keys.getLong(1);
            }
        }
    }
}
