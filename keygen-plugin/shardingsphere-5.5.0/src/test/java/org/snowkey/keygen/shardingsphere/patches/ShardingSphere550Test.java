package org.snowkey.keygen.shardingsphere.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;
import org.apache.shardingsphere.mode.manager.ContextManager;
import org.apache.shardingsphere.mode.manager.listener.ContextManagerLifecycleListener;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.keygen.shardingsphere.ContextLifecycleListener;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.keygen.testkit.LineContract;
import org.snowkey.keygen.testkit.LineFixture;

/**
 * IMPROVED_SNOWFLAKE from snowkey-keygen-plugin on the real ShardingSphere-JDBC 5.5.0 (the plugin is built against 5.5.2).
 * 5.5.0 hands the instance context through {@code InstanceContextAware} and a listener with 5.4's descriptors, not
 * through {@code ComputeNodeInstanceContextAware} as 5.5.1 does: the contract's "lease taken at start-up" and "SNOWFLAKE
 * still starts" checks are what failed on 5.5.0 before (its start-up failed with NoClassDefFoundError).
 */
class ShardingSphere550Test extends LineContract {

    @Override
    protected String databaseNameKey() {
        return "databaseName";
    }

    @Override
    protected String clusterModeOnZooKeeper(final String serverLists, final String namespace) {
        return null;
    }

    @Override
    protected String whyNoClusterMode() {
        return "ShardingSphere 5.5.0's ZooKeeper repository (shardingsphere-cluster-mode-repository-zookeeper) is not served by the Maven repository"
                + " this build uses; Cluster mode is tested on 5.5.2";
    }

    @Override
    protected boolean keyGeneratorKnowsTheTable() {
        return true;
    }

    @Test
    void closingTheDataSourceReleasesWhatBothKeyGeneratorsTookAtStartUp() throws Exception {
        // 5.5.0 tells listeners only the logical database name at close; SnowKey maps it back to the context it bound.
        LineFixture fixture = new LineFixture(databaseNameKey()).keyGenerator("snowkey", "IMPROVED_SNOWFLAKE", leases.props("closed"))
                .keyGenerator("dense", "SNOWKEY_SEGMENT", segmentProps()).table(LineFixture.ORDER, "snowkey").table(LineFixture.ITEM, "dense");
        DataSource dataSource = createDataSource(fixture.write(directory));
        assertEquals(1, leases.heldWorkerIds("closed").size(), "the lease is taken at start-up");
        assertEquals(1, SegmentRuntime.get().scopes().size(), "the segment allocator is joined at start-up");
        ((AutoCloseable) dataSource).close();
        assertEquals(List.of(), leases.heldWorkerIds("closed"), "ShardingSphereDataSource.close() released the lease");
        assertEquals(List.of(), SegmentRuntime.get().scopes(), "and closed the segment allocator");
    }

    @Test
    void closingAnotherDataSourceOfTheSameDatabaseNameWithoutSnowKeyKeepsTheLeaseOfTheOneThatHasIt() throws Exception {
        // 5.5.0 names only the database at close. A data source of that name without SnowKey key generators (here
        // SNOWFLAKE) was not counted as open, so its close released the lease under the live SnowKey one: another
        // process could then take that worker id while this one still issues keys on it.
        LineFixture withSnowKey = new LineFixture(databaseNameKey()).keyGenerator("snowkey", "IMPROVED_SNOWFLAKE", leases.props("shared_name"))
                .table(LineFixture.ORDER, "snowkey");
        Path snowKeyYaml = withSnowKey.write(directory);
        String databaseLine = Files.readAllLines(snowKeyYaml).get(0);
        LineFixture withoutSnowKey = new LineFixture(databaseNameKey()).keyGenerator("plain", "SNOWFLAKE", Map.of()).table(LineFixture.ORDER, "plain");
        Path plainYaml = withoutSnowKey.write(directory);
        List<String> plainLines = new ArrayList<>(Files.readAllLines(plainYaml));
        plainLines.set(0, databaseLine);
        Files.write(plainYaml, plainLines);
        DataSource snowKey = createDataSource(snowKeyYaml);
        try {
            DataSource plain = createDataSource(plainYaml);
            assertEquals(1, leases.heldWorkerIds("shared_name").size(), "the lease is taken at start-up");
            ((AutoCloseable) plain).close();
            assertEquals(1, leases.heldWorkerIds("shared_name").size(), "the SnowKey data source is still open: its lease stays");
            insertReturningKey(snowKey);
        } finally {
            ((AutoCloseable) snowKey).close();
        }
        // Two data sources of the name were open: SnowKey releases each when its own context has closed, just after.
        awaitReleased("shared_name", "released once its own context has closed");
    }

    @Test
    void closingOneDataSourceTwiceKeepsTheLeaseAndScopeOfAnotherLiveOneOfTheSameDatabaseName() throws Exception {
        // 5.5.0 names only the database at close. Counting closes per name took the second close of the first data
        // source for the close of the second, released its lease and segment scope while it was live, and its bindings
        // kept the closed generator and scope: every later INSERT failed.
        Path firstYaml = twin("twin_first").write(directory);
        Path secondYaml = twin("twin_second").write(directory);
        sameDatabaseName(firstYaml, secondYaml);
        DataSource first = createDataSource(firstYaml);
        DataSource second = createDataSource(secondYaml);
        try {
            ((AutoCloseable) first).close();
            ((AutoCloseable) first).close();
            assertEquals(1, leases.heldWorkerIds("twin_second").size(), "the second data source is open: its lease stays");
            insertReturningKey(second);
            insertItem(second);
            awaitReleased("twin_first", "the first data source's lease is released once its own context has closed");
        } finally {
            ((AutoCloseable) second).close();
        }
        awaitReleased("twin_second", "and the second's once it has closed too");
    }

    @Test
    void closingOneOfTwoDataSourcesOnOneLeaseTwiceKeepsTheSharedLeaseUntilTheLastClosesAndItsSuccessorStartsAbove() throws Exception {
        // Both data sources lease from one pool: one generation, owned by both contexts. SnowKey cannot tell their closes
        // apart, so each context is released when its own has closed; the first's release must leave the generation open.
        Path firstYaml = twin("one_scope").write(directory);
        Path secondYaml = twin("one_scope").write(directory);
        sameDatabaseName(firstYaml, secondYaml);
        DataSource first = createDataSource(firstYaml);
        DataSource second = createDataSource(secondYaml);
        List<Long> issued = new ArrayList<>();
        try {
            issued.add(insertReturningKey(first));
            issued.add(insertReturningKey(second));
            List<Integer> held = leases.heldWorkerIds("one_scope");
            assertEquals(1, held.size(), "one lease for both data sources");
            Set<Thread> watchersBefore = closeWatchers();
            ((AutoCloseable) first).close();
            ((AutoCloseable) first).close();
            // The first close started a watcher per context of the name; a watcher ends once its context has closed.
            awaitOneWatcherLeft(watchersBefore);
            assertEquals(held, leases.heldWorkerIds("one_scope"), "the first context was released; the second still issues on the lease");
            for (int i = 0; i < 20; i++) {
                issued.add(insertReturningKey(second));
            }
        } finally {
            ((AutoCloseable) second).close();
        }
        assertEquals(issued.size(), new HashSet<>(issued).size(), "no key twice across the two data sources: " + issued);
        awaitReleased("one_scope", "the lease is released once the last context has closed");
        DataSource successor = createDataSource(secondYaml);
        try {
            long highest = issued.stream().mapToLong(Long::longValue).max().orElseThrow();
            long next = insertReturningKey(successor);
            assertTrue(next > highest, "the successor issued " + next + ", not above " + highest);
        } finally {
            ((AutoCloseable) successor).close();
        }
    }

    /** SnowKey's threads waiting for a 5.5.0 context to close (see InstanceContexts). */
    private static Set<Thread> closeWatchers() {
        Set<Thread> result = new HashSet<>();
        for (Thread each : Thread.getAllStackTraces().keySet()) {
            if ("snowkey-context-close-watcher".equals(each.getName())) {
                result.add(each);
            }
        }
        return result;
    }

    /**
     * Waits (at most a minute) until one watcher started since {@code before} is left: the closed context's has finished,
     * after releasing it; the open one's waits.
     */
    private static void awaitOneWatcherLeft(final Set<Thread> before) {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (startedSince(before) > 1 && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
            Thread.yield();
        }
        assertEquals(1, startedSince(before), "the closed context's watcher finished, the open one's waits");
    }

    private static long startedSince(final Set<Thread> before) {
        return closeWatchers().stream().filter(each -> !before.contains(each)).count();
    }

    private LineFixture twin(final String pool) throws Exception {
        return new LineFixture(databaseNameKey()).keyGenerator("snowkey", "IMPROVED_SNOWFLAKE", leases.props(pool))
                .keyGenerator("dense", "SNOWKEY_SEGMENT", segmentProps()).table(LineFixture.ORDER, "snowkey").table(LineFixture.ITEM, "dense");
    }

    /** Gives {@code other} the logical database name of {@code yaml} (its first line). */
    private static void sameDatabaseName(final Path yaml, final Path other) throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(other));
        lines.set(0, Files.readAllLines(yaml).get(0));
        Files.write(other, lines);
    }

    private static void insertItem(final DataSource dataSource) throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            assertEquals(1, statement.executeUpdate("INSERT INTO t_order_item (user_id, note) VALUES (1, 'i')"));
        }
    }

    /**
     * Waits (at most a minute) for the pool to hold no lease: a context whose close SnowKey could not tell apart is
     * released by a watcher once ShardingSphere has closed it, on another thread.
     */
    private void awaitReleased(final String pool, final String message) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (!leases.heldWorkerIds(pool).isEmpty() && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
            Thread.yield();
        }
        assertEquals(List.of(), leases.heldWorkerIds(pool), message);
    }

    @Test
    void withNoDatabaseNamedAsShardingSphereProxyCallsItTheListenerBindsTheKeyGeneratorsOfEveryDatabase() throws Exception {
        LineFixture fixture = new LineFixture(databaseNameKey()).keyGenerator("snowkey", "IMPROVED_SNOWFLAKE", leases.props("proxy"))
                .table(LineFixture.ORDER, "snowkey");
        DataSource dataSource = open(fixture);
        Field field = dataSource.getClass().getDeclaredField("contextManager");
        field.setAccessible(true);
        ContextManager contextManager = (ContextManager) field.get(dataSource);
        SnowflakeRuntime.get().release(contextManager.getInstanceContext());
        assertEquals(List.of(), leases.heldWorkerIds("proxy"), "released: as if the JDBC start-up had not bound it");
        ContextManagerLifecycleListener listener = new ContextLifecycleListener();
        listener.onInitialized(null, contextManager);
        assertEquals(1, leases.heldWorkerIds("proxy").size(), "ShardingSphere-Proxy 5.5.0's onInitialized(null, contextManager) binds it");
    }

    @Override
    protected DataSource createDataSource(final Path yaml) throws Exception {
        return YamlShardingSphereDataSourceFactory.createDataSource(yaml.toFile());
    }
}
