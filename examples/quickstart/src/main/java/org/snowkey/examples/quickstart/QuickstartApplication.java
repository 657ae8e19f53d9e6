package org.snowkey.examples.quickstart;

import java.io.IOException;
import java.io.InputStream;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.test.TestingServer;
import org.snowkey.keygen.layout.DecodedId;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.runtime.SnowflakeRuntime;

/**
 * The SnowKey quickstart: ShardingSphere-JDBC over two embedded H2 databases, {@code t_order} split into two
 * tables by {@code order_id % 2}, keys filled by {@code IMPROVED_SNOWFLAKE}. It inserts orders without ids,
 * prints each id with its decoded parts, then the rows per physical table: the odd/even split stays even
 * however slowly orders arrive.
 */
public final class QuickstartApplication {

    private static final int ORDERS = 12;

    private QuickstartApplication() {
    }

    /**
     * {@code --registry zookeeper} (default: an embedded ZooKeeper server), {@code --zookeeper host:port[,...]} (a
     * real ensemble), {@code --registry jdbc} (a lease table in the quickstart's own H2 database) or
     * {@code --registry static} (worker id 1, no lease).
     */
    public static void main(final String[] args) throws Exception {
        String registry = "zookeeper";
        String servers = null;
        for (int i = 0; i < args.length; i++) {
            if ("--registry".equals(args[i]) && i + 1 < args.length) {
                registry = args[++i];
            } else if ("--zookeeper".equals(args[i]) && i + 1 < args.length) {
                servers = args[++i];
            } else {
                System.err.println("usage: [--registry zookeeper|jdbc|static] [--zookeeper host:port[,host:port...]]");
                System.exit(2);
            }
        }
        Map<String, String> props = new LinkedHashMap<>();
        switch (registry) {
            case "zookeeper" -> {
                props.put("lease-registry", "zookeeper");
                if (servers == null) {
                    // Curator's in-process ZooKeeper server: the quickstart needs nothing installed.
                    TestingServer zookeeper = new TestingServer(true);
                    Runtime.getRuntime().addShutdownHook(new Thread(() -> closeQuietly(zookeeper)));
                    servers = zookeeper.getConnectString();
                    System.out.println("Started an embedded ZooKeeper server at " + servers);
                }
                props.put("zookeeper-server-lists", servers);
                props.put("zookeeper-namespace", "quickstart");
            }
            case "jdbc" -> {
                props.put("lease-registry", "jdbc");
                props.put("jdbc-url", h2Url(0));
                props.put("jdbc-username", "sa");
            }
            case "static" -> props.put("worker-id", "1");
            default -> {
                System.err.println("unknown registry '" + registry + "': zookeeper, jdbc or static");
                System.exit(2);
            }
        }
        props.put("instance-id", "quickstart");
        new QuickstartApplication().run(props);
        // Release the lease with its exact high-water mark now, while the embedded ZooKeeper still runs (SnowKey's
        // own shutdown hook would race the server's).
        SnowflakeRuntime.get().closeAll();
        System.exit(0);
    }

    private static void closeQuietly(final AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (final Exception ignored) {
            // The JVM is going down.
        }
    }

    void run(final Map<String, String> snowkeyProps) throws IOException, SQLException {
        createPhysicalTables();
        Path yaml = writeConfiguration(snowkeyProps);
        IdLayout layout = IdLayout.defaults();
        List<Long> ids = new ArrayList<>();
        System.out.println("SnowKey props: " + snowkeyProps);
        System.out.println("Inserting " + ORDERS + " orders without ids through ShardingSphere-JDBC (" + yaml + ")");
        try (Connection connection = DriverManager.getConnection("jdbc:shardingsphere:absolutepath:" + yaml.toAbsolutePath());
             PreparedStatement insert = connection.prepareStatement("INSERT INTO t_order (user_id, status) VALUES (?, 'NEW')", Statement.RETURN_GENERATED_KEYS)) {
            for (int i = 0; i < ORDERS; i++) {
                // Users change every two orders, so both databases see both parities.
                int user = i / 2;
                insert.setInt(1, user);
                insert.executeUpdate();
                try (ResultSet keys = insert.getGeneratedKeys()) {
                    keys.next();
                    long id = keys.getLong(1);
                    ids.add(id);
                    DecodedId decoded = layout.decode(id);
                    System.out.printf("  order_id %d  ->  ds_%d.t_order_%d   timestamp %s  worker-id %d  sequence %d%n",
                            id, user % 2, id % 2, decoded.timestamp(), decoded.workerId(), decoded.sequence());
                }
            }
        }
        System.out.println("Rows per physical table (t_order_0 holds even ids, t_order_1 odd ids):");
        for (int ds = 0; ds < 2; ds++) {
            for (int table = 0; table < 2; table++) {
                System.out.printf("  ds_%d.t_order_%d: %d%n", ds, table, count(ds, "t_order_" + table));
            }
        }
        SnowflakeRuntime.get().generators().forEach(each -> System.out.println("Lease: " + each.lease().status()));
        long even = ids.stream().filter(each -> each % 2 == 0).count();
        System.out.printf("id %% 2: %d even, %d odd%n", even, ids.size() - even);
        System.out.println("Decode any id: java -jar keygen-plugin/target/snowkey-keygen-plugin-0.1.0-SNAPSHOT.jar decode " + ids.get(0));
    }

    private static String h2Url(final int ds) {
        return "jdbc:h2:mem:quickstart_ds_" + ds + ";DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false;MODE=MySQL";
    }

    /** ShardingSphere routes to physical tables that must exist; it reads their metadata when it starts. */
    private static void createPhysicalTables() throws SQLException {
        for (int ds = 0; ds < 2; ds++) {
            try (Connection connection = DriverManager.getConnection(h2Url(ds), "sa", "");
                 Statement statement = connection.createStatement()) {
                for (int table = 0; table < 2; table++) {
                    statement.execute("CREATE TABLE IF NOT EXISTS t_order_" + table + " (order_id BIGINT PRIMARY KEY, user_id INT NOT NULL, status VARCHAR(16))");
                }
            }
        }
    }

    private static Path writeConfiguration(final Map<String, String> snowkeyProps) throws IOException {
        String template;
        try (InputStream in = QuickstartApplication.class.getResourceAsStream("/quickstart.yaml")) {
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        StringBuilder props = new StringBuilder();
        snowkeyProps.forEach((key, value) -> props.append("        ").append(key).append(": '").append(value).append("'\n"));
        Path yaml = Files.createTempFile("snowkey-quickstart-", ".yaml");
        yaml.toFile().deleteOnExit();
        Files.writeString(yaml, template.replace("${SNOWKEY_PROPS}\n", props.toString()));
        return yaml;
    }

    private static int count(final int ds, final String table) throws SQLException {
        try (Connection connection = DriverManager.getConnection(h2Url(ds), "sa", "");
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rows.next();
            return rows.getInt(1);
        }
    }
}
