package org.snowkey.lease.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.snowkey.lease.store.CorruptLeaseRecordException;
import org.snowkey.lease.store.LeaseRecord.State;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.store.jdbc.JdbcStoreSettings;
import org.snowkey.store.jdbc.JdbcTableName;

/**
 * H2 as applications configure it (the quickstart runs MODE=MySQL, and the default upper-cases identifiers): the
 * DDL, create, compare-and-set and corrupt-row detection work in each compatibility mode.
 */
class JdbcH2ModesTest {

    @ParameterizedTest
    @ValueSource(strings = {";MODE=MySQL;DATABASE_TO_UPPER=false", ";MODE=MySQL", ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE", ";MODE=MariaDB", ""})
    void theStoreWorksInEveryCompatibilityMode(final String settings) throws SQLException {
        String url = "jdbc:h2:mem:modes_" + Math.abs(settings.hashCode()) + ";DB_CLOSE_DELAY=-1" + settings;
        JdbcTableName table = TestDatabase.uniqueTable("modes");
        // A generous connection timeout: once in a CI run the first connection of this class took over 3 s to appear
        // (total=0, no failure recorded by the pool); the subject here is the SQL of each mode, not the timeout.
        try (JdbcLeaseStore store = new JdbcLeaseStore(new JdbcStoreSettings(url, "sa", "", table, true, 30_000L))) {
            long version = store.create(new LeaseRecord("default", 1, "a", 1, 100, 100, State.HELD)).orElseThrow();
            assertEquals(Optional.empty(), store.create(new LeaseRecord("default", 1, "b", 1, 100, 100, State.HELD)));
            assertTrue(store.compareAndSet(new LeaseRecord("default", 1, "a", 1, 200, 200, State.RELEASED), version).isPresent());
            assertEquals(Optional.empty(), store.compareAndSet(new LeaseRecord("default", 1, "c", 2, 300, 300, State.HELD), version));
            assertEquals(State.RELEASED, store.read("default", 1).orElseThrow().record().state());
            try (JdbcLeaseStore same = new JdbcLeaseStore(new JdbcStoreSettings(url, "sa", "", table, false, 30_000L))) {
                assertEquals(1, same.list("default").leases().size(), "a second store finds the table without creating it");
            }
            // A damaged row written with the same URL, so with the same identifier case rules as the store's.
            try (Connection connection = DriverManager.getConnection(url, "sa", ""); Statement statement = connection.createStatement()) {
                statement.execute("INSERT INTO " + table.value() + " (" + LeaseRowReader.COLUMNS + ") VALUES ('default', 2, 'x', 1, 1, 0, 0, 'NOPE')");
            }
            CorruptLeaseRecordException corrupt = assertThrows(CorruptLeaseRecordException.class, () -> store.read("default", 2));
            assertTrue(corrupt.getMessage().contains("state=NOPE"), corrupt.getMessage());
        }
    }
}
