package org.snowkey.segment.endtoend;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;

/**
 * Test fixture, run as its own JVM by {@code SegmentClusterModeEndToEndTest}: one ShardingSphere-JDBC instance in
 * Cluster mode (YAML given) whose keys come from {@code SNOWKEY_SEGMENT}. It starts, prints STARTED, waits for GO on
 * its standard input (so that every instance is up before any inserts), inserts single rows into {@code t_order} and
 * single and three-row INSERTs into {@code t_order_item}, writes each table's keys in insert order to
 * {@code <out>-t_order.txt} and {@code <out>-t_order_item.txt}, prints DONE and keeps running until its input closes.
 *
 * <p>Arguments: YAML file, H2 URL of the data source, rounds, output file prefix.
 */
public final class SegmentClusterModeInstance {

    private SegmentClusterModeInstance() {
    }

    private static void firstRow(final PreparedStatement insert) throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (true) {
            try {
                insert.executeUpdate();
                return;
            } catch (final java.sql.SQLException ex) {
                if (System.nanoTime() - deadline > 0) {
                    throw ex;
                }
                System.err.println("first row failed, retrying: " + ex.getMessage());
            }
        }
    }

    public static void main(final String[] args) throws Exception {
        String h2Url = args[1];
        int rounds = Integer.parseInt(args[2]);
        SegmentShardingYaml.createTables(h2Url);
        DataSource dataSource = YamlShardingSphereDataSourceFactory.createDataSource(new File(args[0]));
        System.out.println("STARTED");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String go = in.readLine();
        if (!"GO".equals(go)) {
            System.exit(2);
        }
        try (Connection connection = dataSource.getConnection();
             PreparedStatement order = connection.prepareStatement("INSERT INTO t_order (seq) VALUES (?)");
             PreparedStatement item = connection.prepareStatement("INSERT INTO t_order_item (seq) VALUES (?)");
             PreparedStatement threeItems = connection.prepareStatement("INSERT INTO t_order_item (seq) VALUES (?), (?), (?)")) {
            int items = 0;
            for (int i = 0; i < rounds; i++) {
                order.setInt(1, i);
                item.setInt(1, items++);
                if (i == 0) {
                    // The first range of each table creates its nodes, which on a loaded machine may outlast the default
                    // 3 s fetch timeout (no props here): the first row is retried, as an application would.
                    firstRow(order);
                    firstRow(item);
                } else {
                    order.executeUpdate();
                    item.executeUpdate();
                }
                for (int j = 1; j <= 3; j++) {
                    threeItems.setInt(j, items++);
                }
                threeItems.executeUpdate();
            }
        }
        for (String[] each : List.of(new String[] {"t_order", "order_id"}, new String[] {"t_order_item", "item_id"})) {
            List<String> lines = new ArrayList<>();
            SegmentShardingYaml.keysInInsertOrder(dataSource, each[0], each[1]).forEach(key -> lines.add(Long.toString(key)));
            Files.write(Path.of(args[3] + "-" + each[0] + ".txt"), lines, StandardCharsets.UTF_8);
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
}
