package org.snowkey.keygen.shardingsphere.v53;

import java.nio.file.Path;

import javax.sql.DataSource;

import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;
import org.snowkey.keygen.testkit.LineContract;

/** IMPROVED_SNOWFLAKE on the real ShardingSphere-JDBC 5.3. */
class ShardingSphere53Test extends LineContract {

    @Override
    protected String databaseNameKey() {
        return "databaseName";
    }

    @Override
    protected String clusterModeOnZooKeeper(final String serverLists, final String namespace) {
        return "mode:\n  type: Cluster\n  repository:\n    type: ZooKeeper\n    props:\n      namespace: " + namespace + "\n      server-lists: " + serverLists + "\n      retryIntervalMilliseconds: 1000\n      maxRetries: 20\n      operationTimeoutMilliseconds: 30000\n";
    }

    @Override
    protected DataSource createDataSource(final Path yaml) throws Exception {
        return YamlShardingSphereDataSourceFactory.createDataSource(yaml.toFile());
    }
}
