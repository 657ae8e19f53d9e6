package org.snowkey.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import javax.sql.DataSource;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.shardingsphere.KeyGeneratorFixtures;
import org.snowkey.spring.SnowKeySegments;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * ShardingSphere-JDBC in Cluster mode on ZooKeeper (its test repository, {@code CuratorClusterPersistRepositoryFixture},
 * comes from the tests jar of snowkey-lease-zookeeper) beside the Spring beans, whose {@code snowkey.*} settings name ZooKeeper without a namespace: the YAML key generators
 * inheriting them take the mode's namespace. The bean and the INSERTs must count a table on one store, or the key
 * generator must refuse to start naming both.
 */
class SnowKeyClusterModeTest {

    /** How often an INSERT is tried while ShardingSphere swaps its global rules (see {@link #insert}): 50 tries, 20 ms apart. */
    private static final int RULE_SWAP_ATTEMPTS = 50;

    private static TestingServer zookeeper;

    @TempDir
    Path directory;

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zookeeper = new TestingServer(true);
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        zookeeper.close();
    }

    @AfterEach
    void forgetTheMode() {
        // The Cluster registry seen stays for the JVM's life; later tests of this JVM run without ShardingSphere's mode.
        KeyGeneratorFixtures.forgetSeenClusterRegistries();
    }

    private ApplicationContextRunner runner(final String database, final String keyGeneratorType, final String... more) throws Exception {
        return runnerWithOwnProps(database, keyGeneratorType, "", more);
    }

    /** @param ownProps the key generator's props in the YAML, as lines under {@code props:}; empty for none */
    private ApplicationContextRunner runnerWithOwnProps(final String database, final String keyGeneratorType, final String ownProps, final String... more)
            throws Exception {
        Path yaml = directory.resolve(database + ".yaml");
        Files.writeString(yaml, "databaseName: " + database + "\n"
                + "mode:\n"
                + "  type: Cluster\n"
                + "  repository:\n"
                + "    type: ZooKeeper\n"
                + "    props:\n"
                + "      namespace: governance_" + database + "\n"
                + "      server-lists: " + zookeeper.getConnectString() + "\n"
                + "dataSources:\n"
                + "  ds:\n"
                + "    dataSourceClassName: com.zaxxer.hikari.HikariDataSource\n"
                + "    driverClassName: org.h2.Driver\n"
                + "    jdbcUrl: jdbc:h2:mem:" + database + ";DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false;MODE=MySQL;INIT=RUNSCRIPT FROM 'classpath:t_order.sql'\n"
                + "    username: sa\n"
                + "    password: ''\n"
                + "rules:\n"
                + "- !SHARDING\n"
                + "  tables:\n"
                + "    t_order:\n"
                + "      actualDataNodes: ds.t_order_${0..1}\n"
                + "      tableStrategy:\n"
                + "        standard:\n"
                + "          shardingColumn: order_id\n"
                + "          shardingAlgorithmName: by_order_id\n"
                + "      keyGenerateStrategy:\n"
                + "        column: order_id\n"
                + "        keyGeneratorName: keys\n"
                + "  shardingAlgorithms:\n"
                + "    by_order_id:\n"
                + "      type: INLINE\n"
                + "      props:\n"
                + "        algorithm-expression: t_order_${order_id % 2}\n"
                + "  keyGenerators:\n"
                + "    keys:\n"
                + "      type: " + keyGeneratorType + "\n"
                + (ownProps.isEmpty() ? "" : "      props:\n" + ownProps));
        return new ApplicationContextRunner().withConfiguration(SpringBootGeneration.snowKey()).withConfiguration(SpringBootGeneration.dataSource())
                .withPropertyValues("spring.datasource.driver-class-name=org.apache.shardingsphere.driver.ShardingSphereDriver",
                        "spring.datasource.url=jdbc:shardingsphere:absolutepath:" + yaml.toAbsolutePath(), "snowkey.worker-id=5")
                .withPropertyValues(more);
    }

    private String[] segmentsOnZooKeeperWithoutNamespace() {
        return new String[] {"snowkey.segment.allocator=zookeeper", "snowkey.segment.zookeeper.server-lists=" + zookeeper.getConnectString(),
                "snowkey.segment.step-min=5", "snowkey.segment.step-max=5"};
    }

    @Test
    void theSegmentsBeanAndTheInsertsCountATableOnTheModesStore() throws Exception {
        runner("cluster_segments", "SNOWKEY_SEGMENT", segmentsOnZooKeeperWithoutNamespace()).run(context -> {
            assertThat(context).hasNotFailed();
            DataSource dataSource = context.getBean(DataSource.class);
            SnowKeySegments segments = context.getBean(SnowKeySegments.class);
            List<Long> keys = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 4; i++) {
                    keys.add(insert(dataSource));
                }
                for (int i = 0; i < 4; i++) {
                    keys.add(segments.sequence("cluster_segments.t_order").nextId());
                }
            }
            assertThat(new HashSet<>(keys)).as("keys of the bean and the INSERTs: " + keys).hasSize(keys.size());
            assertThat(segments.allocator()).contains("governance_cluster_segments");
        });
    }

    @Test
    void aSegmentsBeanUsedBeforeShardingSphereStartedMakesTheKeyGeneratorFailNamingBothStores() throws Exception {
        runner("cluster_early", "SNOWKEY_SEGMENT", segmentsOnZooKeeperWithoutNamespace()).run(context -> {
            SnowKeySegments segments = context.getBean(SnowKeySegments.class);
            long early = segments.sequence("cluster_early.t_order").nextId();
            assertThat(early).isEqualTo(1);
            assertThatThrownBy(() -> insert(context.getBean(DataSource.class))).hasStackTraceContaining("the SnowKeySegments bean")
                    .hasStackTraceContaining("zookeeper|" + zookeeper.getConnectString() + "|snowkey")
                    .hasStackTraceContaining("zookeeper|" + zookeeper.getConnectString() + "|governance_cluster_early");
        });
    }

    @Test
    void theWorkerIdBeanCreatedBeforeTheModeMakesAnInheritingKeyGeneratorFailNamingBothStores() throws Exception {
        runner("cluster_leases", "IMPROVED_SNOWFLAKE", "snowkey.worker-id=", "snowkey.lease.registry=zookeeper",
                "snowkey.zookeeper.server-lists=" + zookeeper.getConnectString()).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThatThrownBy(() -> insert(context.getBean(DataSource.class))).hasStackTraceContaining("the SnowKeyIdGenerator bean")
                            .hasStackTraceContaining("governance_cluster_leases");
                });
    }

    /**
     * As above, with a key generator that sets a prop of its own that has nothing to do with the store
     * ({@code sequence-scope}): it still inherits the bean's store settings and so must fail the same way. The check used
     * to compare every prop, so this key generator leased from the mode's namespace while the bean leased from
     * {@code snowkey}: two pools, and one table's ids from both.
     */
    @Test
    void aKeyGeneratorWithASequenceScopeOfItsOwnStillFailsNamingBothStores() throws Exception {
        runnerWithOwnProps("cluster_own_props", "IMPROVED_SNOWFLAKE", "        sequence-scope: global\n", "snowkey.worker-id=", "snowkey.lease.registry=zookeeper",
                "snowkey.zookeeper.server-lists=" + zookeeper.getConnectString()).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThatThrownBy(() -> insert(context.getBean(DataSource.class))).hasStackTraceContaining("the SnowKeyIdGenerator bean")
                            .hasStackTraceContaining("governance_cluster_own_props");
                });
    }

    /**
     * One INSERT, tried again while ShardingSphere swaps its global rules. In Cluster mode ShardingSphere 5.5 applies its own
     * start-up writes of the global rules again as their watch events come back from ZooKeeper, and each swap empties the live
     * rule list before refilling it ({@code GlobalConfigurationManager.alterGlobalRuleConfiguration}): a statement that runs in
     * that window fails with "Rule `TransactionRule` should have and only have one instance". That window is the host's, not
     * SnowKey's, and closes once the events are applied; any other failure is returned at once.
     */
    private static long insert(final DataSource dataSource) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                return insertOnce(dataSource);
            } catch (final SQLException ex) {
                if (attempt == RULE_SWAP_ATTEMPTS || !duringRuleSwap(ex)) {
                    throw ex;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
        }
    }

    private static boolean duringRuleSwap(final Throwable failure) {
        for (Throwable each = failure; each != null; each = each.getCause()) {
            if (String.valueOf(each.getMessage()).contains("should have and only have one instance")) {
                return true;
            }
        }
        return false;
    }

    private static long insertOnce(final DataSource dataSource) throws Exception {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO t_order (note) VALUES ('x')", Statement.RETURN_GENERATED_KEYS)) {
            insert.executeUpdate();
            try (ResultSet keys = insert.getGeneratedKeys()) {
                assertThat(keys.next()).isTrue();
                return keys.getLong(1);
            }
        }
    }
}
