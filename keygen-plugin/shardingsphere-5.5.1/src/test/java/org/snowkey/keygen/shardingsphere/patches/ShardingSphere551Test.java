package org.snowkey.keygen.shardingsphere.patches;

import java.nio.file.Path;

import javax.sql.DataSource;

import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;
import org.snowkey.keygen.testkit.LineContract;

/** IMPROVED_SNOWFLAKE from snowkey-keygen-plugin on the real ShardingSphere-JDBC 5.5.1 (the plugin is built against 5.5.2). */
class ShardingSphere551Test extends LineContract {

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
        return "ShardingSphere 5.5.1's ZooKeeper repository (shardingsphere-cluster-mode-repository-zookeeper) is not served by the Maven repository"
                + " this build uses; Cluster mode is tested on 5.5.2";
    }

    @Override
    protected boolean keyGeneratorKnowsTheTable() {
        return true;
    }

    @Override
    protected DataSource createDataSource(final Path yaml) throws Exception {
        return YamlShardingSphereDataSourceFactory.createDataSource(yaml.toFile());
    }
}
