package org.snowkey.lease.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.config.Redactor;
import org.snowkey.lease.store.LeaseStoreUnavailableException;
import org.snowkey.store.jdbc.JdbcStoreSettings;
import org.snowkey.store.jdbc.JdbcTableName;

/**
 * Passwords never reach messages, stack traces or logs: wrong credentials against the real servers, a URL
 * carrying the password, and an unknown driver whose error quotes the URL. Everything written to stderr
 * (where slf4j-simple logs) during each test is checked as well.
 */
class JdbcSecretsTest {

    private static final String SECRET = "Sekr3t-pw-4711";

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
        assertFalse(capturedErr.toString(StandardCharsets.UTF_8).contains(SECRET), "a log line carried the password");
    }

    @Test
    void wrongPasswordOnMariaDb() {
        TestDatabase.MARIADB.assumeAvailable();
        JdbcTableName table = TestDatabase.uniqueTable("secret");
        try (JdbcLeaseStore store = new JdbcLeaseStore(new JdbcStoreSettings(TestDatabase.MARIADB.url(), "root", SECRET, table, true, 1_000L))) {
            LeaseStoreUnavailableException error = assertThrows(LeaseStoreUnavailableException.class, () -> store.read("default", 0));
            assertTrue(error.getMessage().contains("jdbc:mariadb://127.0.0.1:3306/test"), error.getMessage());
            assertTrue(TestOutput.trace(error).contains("Access denied"), "the driver's reason is kept: " + TestOutput.trace(error));
            assertNoSecret(error, store);
        }
    }

    @Test
    void wrongPasswordOnH2() {
        String url = "jdbc:h2:mem:secret_test;DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false";
        JdbcTableName table = TestDatabase.uniqueTable("secret");
        // The first connection creates the database with its password; on a busy machine that may take a while.
        try (JdbcLeaseStore owner = new JdbcLeaseStore(new JdbcStoreSettings(url, "sa", "right-one", table, true, 10_000L));
             JdbcLeaseStore store = new JdbcLeaseStore(new JdbcStoreSettings(url, "sa", SECRET, table, true, 2_000L))) {
            owner.list("default");
            LeaseStoreUnavailableException error = assertThrows(LeaseStoreUnavailableException.class, () -> store.read("default", 0));
            assertTrue(TestOutput.trace(error).contains("Wrong user name or password"), TestOutput.trace(error));
            assertNoSecret(error, store);
        }
    }

    @Test
    void passwordInsideTheUrlOfAnUnreachableServer() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String url = "jdbc:postgresql://127.0.0.1:" + closedPort + "/test?user=postgres&password=" + SECRET + "&connectTimeout=1";
        try (JdbcLeaseStore store = new JdbcLeaseStore(new JdbcStoreSettings(url, null, null, new JdbcTableName(JdbcLeaseSchema.DEFAULT_TABLE), true, 1_000L))) {
            assertEquals("jdbc jdbc:postgresql://127.0.0.1:" + closedPort + "/test?connectTimeout=1 table snowkey_worker_lease", store.describe());
            LeaseStoreUnavailableException error = assertThrows(LeaseStoreUnavailableException.class, () -> store.read("default", 0));
            assertTrue(error.getMessage().contains("127.0.0.1:" + closedPort), error.getMessage());
            assertNoSecret(error, store);
        }
    }

    @Test
    void unknownDriverErrorQuotingTheUrl() {
        String url = "jdbc:nosuchdb://127.0.0.1/test?user=app&password=" + SECRET;
        LeaseStoreUnavailableException error = assertThrows(LeaseStoreUnavailableException.class,
                () -> new JdbcLeaseStore(new JdbcStoreSettings(url, "app", SECRET, new JdbcTableName(JdbcLeaseSchema.DEFAULT_TABLE), true, 1_000L)));
        assertTrue(error.getMessage().contains("jdbc:nosuchdb://127.0.0.1/test"), error.getMessage());
        assertNoSecret(error, null);
    }

    @Test
    void redactorCleansEveryCauseAndKeepsTheSqlState() {
        String url = "jdbc:mysql://app:" + SECRET + "@db/test";
        Redactor redactor = Redactor.of(url, SECRET);
        SQLException root = new SQLException("login to " + url + " failed with password " + SECRET, "28000");
        Throwable cleaned = redactor.clean(new SQLTransientConnectionException("pool: " + url, "08001", root));
        assertFalse(TestOutput.trace(cleaned).contains(SECRET), TestOutput.trace(cleaned));
        assertEquals("java.sql.SQLTransientConnectionException: [08001] pool: jdbc:mysql://db/test", cleaned.getMessage());
        assertEquals("java.sql.SQLException: [28000] login to jdbc:mysql://db/test failed with password ****", cleaned.getCause().getMessage());
        assertEquals(root.getStackTrace().length, cleaned.getCause().getStackTrace().length);
    }

    @Test
    void settingsNeverPrintThePassword() {
        JdbcStoreSettings settings = new JdbcStoreSettings("jdbc:h2:mem:x;PASSWORD=" + SECRET, "sa", SECRET, new JdbcTableName(JdbcLeaseSchema.DEFAULT_TABLE), true, 1_000L);
        assertFalse(settings.toString().contains(SECRET), settings.toString());
        assertTrue(settings.toString().contains("password=****"), settings.toString());
    }

    private static void assertNoSecret(final Throwable error, final JdbcLeaseStore store) {
        assertFalse(TestOutput.trace(error).contains(SECRET), TestOutput.trace(error));
        if (store != null) {
            assertFalse(store.describe().contains(SECRET), store.describe());
            assertFalse(store.toString().contains(SECRET), store.toString());
            assertFalse(store.locationOf("default", 0).contains(SECRET));
        }
    }
}
