package org.snowkey.lease.store.zookeeper.cluster;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;

/**
 * Test fixture, run as its own JVM by {@code ClusterModeEndToEndTest}: one ShardingSphere-JDBC instance in Cluster
 * mode (YAML file given), inserting rows whose {@code order_id} comes from {@code IMPROVED_SNOWFLAKE} with no props.
 * It writes the keys stored in the physical tables to a file, prints READY and keeps running (holding its lease)
 * until its standard input closes.
 *
 * <p>Arguments: YAML file, H2 URL of the data source, number of rows, output file.
 */
public final class ClusterModeInstance {

    private ClusterModeInstance() {
    }

    public static void main(final String[] args) throws Exception {
        String h2Url = args[1];
        int rows = Integer.parseInt(args[2]);
        // Physical tables first: ShardingSphere loads their metadata at start-up.
        try (Connection raw = DriverManager.getConnection(h2Url, "sa", ""); Statement statement = raw.createStatement()) {
            for (int i = 0; i < 2; i++) {
                statement.execute("CREATE TABLE IF NOT EXISTS t_order_" + i + " (order_id BIGINT PRIMARY KEY, user_id INT NOT NULL, status VARCHAR(16))");
            }
        }
        DataSource dataSource = YamlShardingSphereDataSourceFactory.createDataSource(new File(args[0]));
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO t_order (user_id, status) VALUES (?, ?)")) {
            for (int i = 0; i < rows; i++) {
                insert.setInt(1, i);
                insert.setString(2, "NEW");
                insert.executeUpdate();
            }
        }
        List<String> keys = new ArrayList<>();
        try (Connection raw = DriverManager.getConnection(h2Url, "sa", "");
             ResultSet result = raw.createStatement().executeQuery("SELECT order_id FROM t_order_0 UNION ALL SELECT order_id FROM t_order_1")) {
            while (result.next()) {
                keys.add(Long.toString(result.getLong(1)));
            }
        }
        Files.write(Path.of(args[3]), keys, StandardCharsets.UTF_8);
        System.out.println("READY " + keys.size());
        System.out.flush();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            while (in.readLine() != null) {
                // Hold the lease until the test lets go.
            }
        }
        if (dataSource instanceof AutoCloseable closeable) {
            closeable.close();
        }
        System.exit(0);
    }
}
