package org.snowkey.keygen.shardingsphere.v54;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.testkit.LineFixture;

/**
 * The wrong adapter, end to end: an application on ShardingSphere 5.4.1 whose class path carries the 5.3 adapter
 * instead of the 5.4 one. Its start-up must fail naming both versions and the adapter to use, never fall back to
 * some other key generator. The application runs in a process of its own, whose class path is this module's test
 * class path with the 5.4 adapter swapped for the 5.3 one (Maven puts the 5.3 adapter's path in a system property).
 */
class WrongLineAdapterTest {

    @TempDir
    Path directory;

    @Test
    @Timeout(300)
    void theFiveThreeAdapterOnFiveFourStopsStartUpNamingBothVersions() throws Exception {
        String wrongAdapter = System.getProperty("snowkey.wrong-line-adapter");
        assertTrue(wrongAdapter != null && new File(wrongAdapter).exists(),
                "the build passes the 5.3 adapter's path in snowkey.wrong-line-adapter; got " + wrongAdapter);
        String testClassPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> entries = Stream.of(testClassPath.split(File.pathSeparator))
                .filter(each -> !Path.of(each).toAbsolutePath().normalize().endsWith(Path.of("shardingsphere-5.4", "target", "classes")))
                .collect(Collectors.toCollection(ArrayList::new));
        assertEquals(testClassPath.split(File.pathSeparator).length - 1, entries.size(), "the 5.4 adapter's classes were taken off: " + testClassPath);
        entries.add(wrongAdapter);
        Path output = directory.resolve("application.log");
        Process application = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", String.join(File.pathSeparator, entries), Application.class.getName(), directory.toString())
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        assertTrue(application.waitFor(240, TimeUnit.SECONDS), "the application finishes its start-up attempt");
        String log = Files.readString(output, StandardCharsets.UTF_8);
        assertEquals(Application.START_UP_FAILED, application.exitValue(), log);
        assertTrue(log.contains("snowkey-keygen-shardingsphere-5.3 is built for ShardingSphere 5.3.x, but this application runs ShardingSphere 5.4.1"), log);
        assertTrue(log.contains("use snowkey-keygen-shardingsphere-5.4"), log);
    }

    /** A ShardingSphere-JDBC application with one SnowKey key generator: starts, inserts, exits 0, or prints why not. */
    public static final class Application {

        static final int START_UP_FAILED = 3;

        public static void main(final String[] args) throws Exception {
            LineFixture fixture = new LineFixture("databaseName")
                    .keyGenerator("snowkey", "IMPROVED_SNOWFLAKE", Map.of("worker-id", "5"))
                    .table(LineFixture.ORDER, "snowkey");
            DataSource dataSource;
            try {
                dataSource = YamlShardingSphereDataSourceFactory.createDataSource(fixture.write(Path.of(args[0])).toFile());
                try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
                    statement.executeUpdate("INSERT INTO t_order (user_id, note) VALUES (1, 'x')");
                }
            } catch (final Exception | LinkageError ex) {
                for (Throwable each = ex; null != each; each = each.getCause()) {
                    System.out.println("cause: " + each);
                }
                System.exit(START_UP_FAILED);
                return;
            }
            System.out.println("started and inserted: " + fixture.keys(LineFixture.ORDER));
            System.exit(0);
        }
    }
}
