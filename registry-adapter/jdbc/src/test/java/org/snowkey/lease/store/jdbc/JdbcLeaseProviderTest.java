package org.snowkey.lease.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Optional;
import java.util.Properties;
import java.util.ServiceLoader;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.lease.PreparedLease;
import org.snowkey.keygen.lease.WorkerLeaseProvider;
import org.snowkey.keygen.runtime.SnowflakePlan;
import org.snowkey.keygen.runtime.SnowflakePlanner;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.lease.testing.Ids;
import org.snowkey.store.jdbc.JdbcTableName;

/** {@code lease-registry: jdbc}: props validated without I/O, scope keys without credentials, and the runtime end to end on H2. */
class JdbcLeaseProviderTest {

    private static final String SECRET = "Sekr3t-pw-0815";

    private static Properties props(final String... pairs) {
        Properties props = new Properties();
        for (int i = 0; i < pairs.length; i += 2) {
            props.setProperty(pairs[i], pairs[i + 1]);
        }
        return props;
    }

    private static PreparedLease prepare(final Properties props) {
        return new JdbcLeaseProvider().prepare(props, Ids.layout(13), Optional.empty());
    }

    @Test
    void isFoundByServiceLoaderUnderJdbc() {
        boolean found = ServiceLoader.load(WorkerLeaseProvider.class).stream()
                .anyMatch(each -> each.type() == JdbcLeaseProvider.class && "jdbc".equals(each.get().registry()));
        assertTrue(found, "META-INF/services lists org.snowkey.lease.store.jdbc.JdbcLeaseProvider");
    }

    @Test
    void prepareDoesNoIoAndTheScopeKeyHasNoCredentials() {
        // Nothing listens on port 1: preparing must still succeed, because ShardingSphere prepares throw-away instances.
        PreparedLease prepared = prepare(props("lease-registry", "jdbc", "jdbc-url", "jdbc:postgresql://127.0.0.1:1/app?user=app&password=" + SECRET,
                "jdbc-password", SECRET, "lease-pool", "orders"));
        assertEquals("jdbc|jdbc:postgresql://127.0.0.1:1/app|snowkey_worker_lease|url-user=app|orders", prepared.scopeKey());
        assertFalse(prepared.toString().contains(SECRET), prepared.toString());
    }

    @Test
    void theUserIsPartOfTheScopeSinceAnUnqualifiedTableLiesInTheUsersSchema() {
        String first = prepare(props("jdbc-url", "jdbc:postgresql://127.0.0.1:1/app", "jdbc-username", "orders_app")).scopeKey();
        String second = prepare(props("jdbc-url", "jdbc:postgresql://127.0.0.1:1/app", "jdbc-username", "billing_app")).scopeKey();
        assertEquals("jdbc|jdbc:postgresql://127.0.0.1:1/app|snowkey_worker_lease|user=orders_app|default", first);
        assertNotEquals(first, second);
    }

    /**
     * A user given only inside the URL picks the schema of an unqualified table just as {@code jdbc-username} does:
     * {@code ?user=orders_app} and {@code ?user=billing_app} (or {@code orders_app:pw@}) may be two lease tables, two
     * pools. One scope for both made the JVM issue billing's ids on a worker id of the orders pool, which billing's other
     * instances may lease too (the scope key stripped the URL's user with its password).
     */
    @Test
    void aUserGivenOnlyInTheUrlIsPartOfTheScopeToo() {
        String orders = prepare(props("jdbc-url", "jdbc:postgresql://127.0.0.1:1/app?user=orders_app&password=" + SECRET)).scopeKey();
        String billing = prepare(props("jdbc-url", "jdbc:postgresql://127.0.0.1:1/app?user=billing_app&password=" + SECRET)).scopeKey();
        assertNotEquals(orders, billing);
        String ordersInUserInfo = prepare(props("jdbc-url", "jdbc:postgresql://orders_app:" + SECRET + "@127.0.0.1:1/app")).scopeKey();
        String billingInUserInfo = prepare(props("jdbc-url", "jdbc:postgresql://billing_app:" + SECRET + "@127.0.0.1:1/app")).scopeKey();
        assertNotEquals(ordersInUserInfo, billingInUserInfo);
        for (String each : new String[] {orders, billing, ordersInUserInfo, billingInUserInfo}) {
            assertFalse(each.contains(SECRET), each);
        }
    }

    /**
     * Review of the URL's user in the scope: URLs that strip to one URL and name the same users, but connect as two
     * users (measured with pgjdbc 42.7 and MariaDB Connector/J 3.5 against the servers here): both take the last
     * {@code user=} of the query, so {@code ?user=bob&user=alice} connects as alice and
     * {@code ?user=bob&user=alice&user=bob} as bob; pgjdbc reads only a lower-case {@code user=}, so {@code ?USER=alice}
     * connects as {@code jdbc-username} (carol) while {@code ?user=alice} connects as alice; pgjdbc takes
     * {@code ?user=a,b} as the user "a,b" and {@code ?user=a&user=b} as b. A set of names, joined with commas, made
     * each pair one scope: one table's worker id issuing for the other table's pool.
     */
    @ParameterizedTest
    @CsvSource(delimiter = ' ', value = {
            "?user=bob&user=alice ?user=bob&user=alice&user=bob",
            "?USER=alice ?user=alice",
            "?user=a,b ?user=a&user=b"})
    void urlsThatConnectAsTwoUsersAreNeverOneScope(final String firstQuery, final String secondQuery) {
        String first = prepare(props("jdbc-url", "jdbc:postgresql://127.0.0.1:1/app" + firstQuery, "jdbc-username", "carol")).scopeKey();
        String second = prepare(props("jdbc-url", "jdbc:postgresql://127.0.0.1:1/app" + secondQuery, "jdbc-username", "carol")).scopeKey();
        assertNotEquals(first, second, firstQuery + " and " + secondQuery + " connect as two users");
    }

    @Test
    void theTableIsPartOfTheScope() {
        assertEquals("jdbc|jdbc:h2:mem:x|my_leases|default", prepare(props("jdbc-url", "jdbc:h2:mem:x", "jdbc-table", "my_leases")).scopeKey());
    }

    @Test
    void aMissingUrlNamesTheProp() {
        InvalidSettingException error = assertThrows(InvalidSettingException.class, () -> prepare(props("lease-registry", "jdbc")));
        assertEquals("jdbc-url", error.property());
        assertTrue(error.getMessage().contains("required with lease-registry = jdbc"), error.getMessage());
    }

    @Test
    void aUrlThatIsNoJdbcUrlIsQuotedWithoutItsPassword() {
        InvalidSettingException error = assertThrows(InvalidSettingException.class,
                () -> prepare(props("jdbc-url", "postgresql://app:" + SECRET + "@db/app?password=" + SECRET)));
        assertEquals("jdbc-url", error.property());
        assertFalse(error.getMessage().contains(SECRET), error.getMessage());
    }

    @Test
    void anUnsafeTableNameNamesTheProp() {
        InvalidSettingException error = assertThrows(InvalidSettingException.class,
                () -> prepare(props("jdbc-url", "jdbc:h2:mem:x", "jdbc-table", "lease; DROP TABLE orders")));
        assertEquals("jdbc-table", error.property());
        assertTrue(error.getMessage().contains("letters, digits and underscores"), error.getMessage());
    }

    @Test
    void aBadCreateTableFlagNamesTheProp() {
        InvalidSettingException error = assertThrows(InvalidSettingException.class, () -> prepare(props("jdbc-url", "jdbc:h2:mem:x", "jdbc-create-table", "maybe")));
        assertEquals("jdbc-create-table", error.property());
    }

    @Test
    void sharedLeasePropsAreValidatedToo() {
        InvalidSettingException error = assertThrows(InvalidSettingException.class,
                () -> prepare(props("jdbc-url", "jdbc:h2:mem:x", "lease-duration-milliseconds", "10")));
        assertEquals("lease-duration-milliseconds", error.property());
    }

    @Test
    void theRuntimeLeasesAWorkerIdFromTheTable() throws Exception {
        JdbcTableName table = TestDatabase.uniqueTable("runtime");
        Properties props = props("lease-registry", "jdbc", "jdbc-url", TestDatabase.H2.url(), "jdbc-username", "sa", "jdbc-password", "",
                "jdbc-table", table.value(), "lease-pool", "runtime-test", "instance-id", "provider-test");
        SnowflakeRuntime runtime = SnowflakeRuntime.get();
        SnowflakePlan plan = SnowflakePlanner.get().plan(props, Optional.empty());
        try {
            IdGenerator generator = runtime.generator(plan);
            long first = generator.nextId();
            long second = generator.nextId();
            assertTrue(second > first);
            int workerId = generator.decode(first).workerId();
            try (Connection connection = TestDatabase.H2.connect(); Statement statement = connection.createStatement();
                 ResultSet row = statement.executeQuery("SELECT worker_id, owner, state FROM " + table.value() + " WHERE pool = 'runtime-test'")) {
                assertTrue(row.next(), "the lease row exists");
                assertEquals(workerId, row.getInt(1));
                assertEquals("provider-test", row.getString(2));
                assertEquals("HELD", row.getString(3));
            }
            runtime.closeAll();
            long lastTimestamp = generator.decode(second).timestamp().toEpochMilli();
            try (Connection connection = TestDatabase.H2.connect(); Statement statement = connection.createStatement();
                 ResultSet row = statement.executeQuery("SELECT state, reserved_until FROM " + table.value() + " WHERE pool = 'runtime-test'")) {
                assertTrue(row.next());
                assertEquals("RELEASED", row.getString(1), "closing the scope releases the lease");
                assertEquals(lastTimestamp, row.getLong(2), "released with the exact high-water mark");
            }
        } finally {
            runtime.closeAll();
            TestDatabase.H2.dropQuietly(table);
        }
    }

    @Test
    void aProcessLocalDatabaseIsWarnedAboutAndAServerIsNot() {
        String warning = JdbcLeaseProvider.processLocalWarning("jdbc:h2:mem:leases;DB_CLOSE_DELAY=-1;PASSWORD=secret").orElseThrow();
        assertTrue(warning.contains("leases nothing across processes") && warning.contains("jdbc:h2:mem:leases"), warning);
        assertFalse(warning.contains("secret"), warning);
        assertTrue(JdbcLeaseProvider.processLocalWarning("JDBC:H2:MEM:x").isPresent());
        assertEquals(Optional.empty(), JdbcLeaseProvider.processLocalWarning("jdbc:h2:tcp://db:9092/leases"));
        assertEquals(Optional.empty(), JdbcLeaseProvider.processLocalWarning("jdbc:postgresql://db/leases"));
    }
}
