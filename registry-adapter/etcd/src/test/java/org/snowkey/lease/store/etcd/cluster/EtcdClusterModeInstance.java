package org.snowkey.lease.store.etcd.cluster;

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
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import javax.sql.DataSource;

import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;

/**
 * Test fixture, run as its own JVM by {@code EtcdClusterModeEndToEndTest}: one ShardingSphere-JDBC 5.5.2 instance in
 * Cluster mode on the etcd repository (YAML given) with two SnowKey key generators and no SnowKey props:
 * {@code t_order} keyed by {@code IMPROVED_SNOWFLAKE}, {@code t_order_item} by {@code SNOWKEY_SEGMENT}. It starts,
 * prints STARTED, waits for GO (so that every instance is up before any inserts), inserts single rows into both
 * tables, writes each table's keys in insert order to {@code <out>-<table>.txt}, prints DONE and keeps running
 * (holding its lease and its range) until its standard input closes.
 *
 * <p>Arguments: YAML file, H2 URL of the data source, rows per table, output file prefix.
 */
public final class EtcdClusterModeInstance {

    static final List<String> TABLES = List.of("t_order", "t_order_item");

    private EtcdClusterModeInstance() {
    }

    public static void main(final String[] args) throws Exception {
        String h2Url = args[1];
        int rows = Integer.parseInt(args[2]);
        // Physical tables first: ShardingSphere loads their metadata at start-up.
        try (Connection raw = DriverManager.getConnection(h2Url, "sa", ""); Statement statement = raw.createStatement()) {
            for (String table : TABLES) {
                for (int i = 0; i < 2; i++) {
                    statement.execute("CREATE TABLE IF NOT EXISTS " + table + "_" + i + " (id BIGINT PRIMARY KEY, seq INT NOT NULL)");
                }
            }
        }
        DataSource dataSource = YamlShardingSphereDataSourceFactory.createDataSource(new File(args[0]));
        System.out.println("STARTED");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        if (!"GO".equals(in.readLine())) {
            System.exit(2);
        }
        try (Connection connection = dataSource.getConnection()) {
            for (String table : TABLES) {
                try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table + " (seq) VALUES (?)")) {
                    for (int i = 0; i < rows; i++) {
                        insert.setInt(1, i);
                        insert.executeUpdate();
                    }
                }
            }
        }
        for (String table : TABLES) {
            List<String> lines = new ArrayList<>();
            keysInInsertOrder(dataSource, table).forEach(key -> lines.add(Long.toString(key)));
            Files.write(Path.of(args[3] + "-" + table + ".txt"), lines, StandardCharsets.UTF_8);
        }
        System.out.println("DONE");
        System.out.flush();
        while (in.readLine() != null) {
            // Hold the instance until the test lets go.
        }
        if (dataSource instanceof AutoCloseable closeable) {
            closeable.close();
        }
        System.exit(0);
    }

    private static List<Long> keysInInsertOrder(final DataSource dataSource, final String table) throws SQLException {
        TreeMap<Integer, Long> bySeq = new TreeMap<>();
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery("SELECT id, seq FROM " + table)) {
            while (result.next()) {
                if (bySeq.put(result.getInt(2), result.getLong(1)) != null) {
                    throw new IllegalStateException("seq " + result.getInt(2) + " twice in " + table);
                }
            }
        }
        return new ArrayList<>(bySeq.values());
    }
}
