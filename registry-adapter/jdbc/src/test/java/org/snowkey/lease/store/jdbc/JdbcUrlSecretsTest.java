package org.snowkey.lease.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.PreparedLease;
import org.snowkey.keygen.lease.WorkerLease;
import org.snowkey.lease.admin.LeaseCli;
import org.snowkey.store.jdbc.JdbcStoreSettings;
import org.snowkey.store.jdbc.JdbcTableName;

/**
 * A password inside the JDBC URL, in each shape the drivers accept, never leaves SnowKey: not in the start-up
 * failure and its causes, not in {@code toString()}s, not in SnowKey's log lines, and not in anything the operations
 * tool or the connection pool prints at any log level (checked in a child JVM logging everything at TRACE). The
 * secret is searched as written and Base64- or hex-encoded.
 */
class JdbcUrlSecretsTest {

    /**
     * The store gives each connection attempt a quarter of the lease: with a 4 s lease a start-up against a closed port
     * fails after one second instead of the default five. What the failure prints is the same.
     */
    private static final String SHORT_LEASE_MILLIS = "4000";

    private static final String SECRET = "Url-Secret-9071";

    private final ByteArrayOutputStream capturedErr = new ByteArrayOutputStream();

    private PrintStream originalErr;

    @BeforeEach
    void captureStderr() {
        originalErr = System.err;
        System.setErr(new PrintStream(TestOutput.tee(capturedErr, originalErr), true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreStderr() {
        System.setErr(originalErr);
        assertNoSecret("SnowKey's log lines", capturedErr.toString(StandardCharsets.UTF_8));
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** The case: PgJDBC takes "postgres:PW@127.0.0.1" for a host name and quotes it in UnknownHostException. */
    @Test
    void postgresUserInfoInTheStartUpFailure() throws IOException {
        String url = "jdbc:postgresql://postgres:" + SECRET + "@127.0.0.1:" + closedPort() + "/test";
        String failure = startUpFailure(url);
        assertTrue(failure.contains("jdbc:postgresql://127.0.0.1:"), failure);
    }

    /** MySQL's key-value form; without a driver for it the pool cannot even be built, and that error quotes the URL. */
    @Test
    void mysqlKeyValueFormInTheStartUpFailure() throws IOException {
        startUpFailure("jdbc:mysql://(host=127.0.0.1,port=" + closedPort() + ",user=root,password=" + SECRET + ")/test");
    }

    @Test
    void mariadbAddressFormInTheStartUpFailure() throws IOException {
        startUpFailure("jdbc:mariadb://address=(host=127.0.0.1)(port=" + closedPort() + ")(user=root)(password=" + SECRET + ")/test?connectTimeout=500");
    }

    @Test
    void postgresQueryParametersInAnyCase() throws IOException {
        startUpFailure("jdbc:postgresql://127.0.0.1:" + closedPort() + "/test?user=postgres&PassWord=" + SECRET + "&sslpassword=" + SECRET);
    }

    /** H2 reads the password from a ;PASSWORD= setting; a wrong one is refused by a real database. */
    @Test
    void h2PasswordSettingRefusedByTheDatabase() {
        String name = "urlsecret_" + System.nanoTime();
        JdbcTableName table = TestDatabase.uniqueTable("urlsecret");
        try (JdbcLeaseStore owner = new JdbcLeaseStore(new JdbcStoreSettings("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1", "sa", "right-one", table, true, 10_000L))) {
            owner.list("default");
            String failure = startUpFailure("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1;USER=sa;PASSWORD=" + SECRET);
            assertTrue(failure.contains("Wrong user name or password"), failure);
        }
    }

    /**
     * The key generator in its own JVM with every logger at TRACE, so that HikariCP, the drivers and SnowKey print
     * all they have while start-up fails against a closed port.
     */
    @Test
    void runtimeOutputAtEveryLogLevel(@TempDir final Path work) throws Exception {
        int port = closedPort();
        boolean first = true;
        for (String url : List.of("jdbc:postgresql://postgres:" + SECRET + "@127.0.0.1:" + port + "/test",
                "jdbc:postgresql://127.0.0.1:" + port + "/test?user=postgres&password=" + SECRET,
                "jdbc:mariadb://address=(host=127.0.0.1)(port=" + port + ")(user=root)(password=" + SECRET + ")/test",
                "jdbc:mysql://(host=127.0.0.1,port=" + port + ",user=root,password=" + SECRET + ")/test")) {
            String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
                    "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Dorg.slf4j.simpleLogger.defaultLogLevel=trace",
                    "-Dorg.slf4j.simpleLogger.log.org.snowkey=trace", "-Dsnowkey.lease.checkpoint-dir=" + work, "-cp", classpath,
                    LeaseWorkerProcess.class.getName(), work.resolve("ids.txt").toString(), "3", "lease-registry=jdbc", "jdbc-url=" + url,
                    "lease-acquire-timeout-milliseconds=1000", "lease-duration-milliseconds=" + SHORT_LEASE_MILLIS));
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] output = process.getInputStream().readAllBytes();
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the generator process did not end");
            String text = new String(output, StandardCharsets.UTF_8);
            // It ran and logged: the pool's debug lines and SnowKey's failure are there, the secret is not.
            assertTrue(text.contains("SnowKey"), text);
            assertTrue(!first || text.contains("DEBUG com.zaxxer.hikari"), text);
            first = false;
            assertNoSecret("the generator process's output", text);
        }
    }

    /** Same rule as for --password: the operations tool does not take a password inside --url either, and does not echo it. */
    @Test
    void operationsToolRefusesAPasswordInsideTheUrl() throws IOException {
        for (String url : List.of("jdbc:postgresql://postgres:" + SECRET + "@127.0.0.1:" + closedPort() + "/test",
                "jdbc:mysql://(host=127.0.0.1,user=root,password=" + SECRET + ")/test", "jdbc:h2:mem:x;PASSWORD=" + SECRET)) {
            ByteArrayOutputStream output = new ByteArrayOutputStream();
            PrintStream printer = new PrintStream(output, true, StandardCharsets.UTF_8);
            assertEquals(2, LeaseCli.run(new String[] {"--registry", "jdbc", "--url", url, "list"}, java.util.Map.of(), printer, printer));
            String text = output.toString(StandardCharsets.UTF_8);
            assertTrue(text.contains(JdbcStoreOperations.PASSWORD_ENV), text);
            assertNoSecret("the operations tool's output", text);
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        PrintStream printer = new PrintStream(output, true, StandardCharsets.UTF_8);
        assertEquals(1, LeaseCli.run(new String[] {"--registry", "jdbc", "--url", "jdbc:postgresql://127.0.0.1:" + closedPort() + "/test", "--username", "postgres", "list"},
                java.util.Map.of(JdbcStoreOperations.PASSWORD_ENV, SECRET), printer, printer));
        assertNoSecret("the operations tool's output", output.toString(StandardCharsets.UTF_8));
    }

    /** Opens a lease as the key generator does at start-up and returns everything an operator could see of the failure. */
    private static String startUpFailure(final String url) {
        Properties props = new Properties();
        props.setProperty("lease-registry", "jdbc");
        props.setProperty("jdbc-url", url);
        props.setProperty("lease-acquire-timeout-milliseconds", "1000");
        props.setProperty("lease-duration-milliseconds", SHORT_LEASE_MILLIS);
        PreparedLease prepared = new JdbcLeaseProvider().prepare(props, IdLayout.defaults(), Optional.empty());
        assertNoSecret("the prepared lease", prepared + " " + prepared.scopeKey());
        RuntimeException failure = assertThrows(RuntimeException.class, () -> {
            try (WorkerLease lease = prepared.open()) {
                assertNoSecret("the lease", lease.toString() + " " + lease.status());
                lease.currentGrant();
            }
        });
        String seen = TestOutput.trace(failure);
        assertNoSecret("the start-up failure", seen);
        return seen;
    }

    private static void assertNoSecret(final String where, final String text) {
        byte[] bytes = SECRET.getBytes(StandardCharsets.UTF_8);
        for (String each : List.of(SECRET, Base64.getEncoder().encodeToString(bytes), Base64.getUrlEncoder().withoutPadding().encodeToString(bytes),
                HexFormat.of().formatHex(bytes), HexFormat.of().withUpperCase().formatHex(bytes))) {
            assertFalse(text.contains(each), "'" + each + "' in " + where + ": " + text);
        }
    }
}
