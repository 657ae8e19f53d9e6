package org.snowkey.lease.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.lease.UnusablePoolException;
import org.snowkey.lease.store.LeaseRecord.State;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.store.jdbc.JdbcStoreSettings;
import org.snowkey.store.jdbc.JdbcTableName;
import org.snowkey.store.jdbc.JdbcTables;

/**
 * A lease table created by a SnowKey from before the layout column keeps working: its rows read as "layout
 * unknown", the column is added when SnowKey may change the schema, and without that permission the store refuses to
 * write a record that carries a layout (it could not refuse another layout), naming the statement that adds it.
 */
class JdbcLegacyTableTest {

    private static final String OLD_DDL = "CREATE TABLE %s (pool VARCHAR(128) NOT NULL, worker_id INT NOT NULL, owner VARCHAR(255) NOT NULL, "
            + "version BIGINT NOT NULL, fencing_token BIGINT NOT NULL, expires_at BIGINT NOT NULL, reserved_until BIGINT NOT NULL, "
            + "state VARCHAR(16) NOT NULL, PRIMARY KEY (pool, worker_id))";

    @Test
    void anOldTableGainsTheLayoutColumnAndItsRowsReadAsUnknown() throws SQLException {
        String url = "jdbc:h2:mem:legacy_add;DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false";
        JdbcTableName table = oldTableWithOneRow(url, "legacy_add");
        try (JdbcLeaseStore store = new JdbcLeaseStore(new JdbcStoreSettings(url, "sa", "", table, true, 3_000L))) {
            LeaseRecord old = store.read("default", 0).orElseThrow().record();
            assertNull(old.layout());
            assertEquals("older", old.owner());
            IdLayout layout = IdLayout.defaults();
            store.create(new LeaseRecord("default", 1, "current", 1, 100, 100, State.HELD, layout)).orElseThrow();
            assertEquals(layout, store.read("default", 1).orElseThrow().record().layout());
        }
        assertTrue(hasLayoutColumn(url, table));
        assertTrue(hasColumn(url, table, LeaseRowReader.INCARNATION_COLUMN));
    }

    @Test
    void aTableOfTheReleaseBeforeIncarnationsKeepsWorkingWithoutThemWhenItMayNotBeChanged() throws SQLException {
        String url = "jdbc:h2:mem:legacy_incarnation;DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false";
        JdbcTableName table = oldTableWithOneRow(url, "legacy_inc");
        try (Connection connection = DriverManager.getConnection(url, "sa", ""); Statement statement = connection.createStatement()) {
            statement.execute(JdbcLeaseSchema.addLayoutColumn(table));
        }
        try (JdbcLeaseStore store = new JdbcLeaseStore(new JdbcStoreSettings(url, "sa", "", table, false, 3_000L))) {
            store.create(new LeaseRecord("default", 1, "current", 1, 100, 100, State.HELD, IdLayout.defaults(), "a-nonce")).orElseThrow();
            LeaseRecord written = store.read("default", 1).orElseThrow().record();
            assertEquals(IdLayout.defaults(), written.layout());
            assertNull(written.incarnation(), "a table without the column cannot keep it; the lease then judges its claims without it");
        }
        assertFalse(hasColumn(url, table, LeaseRowReader.INCARNATION_COLUMN));
        try (JdbcLeaseStore store = new JdbcLeaseStore(new JdbcStoreSettings(url, "sa", "", table, true, 3_000L))) {
            store.create(new LeaseRecord("default", 2, "current", 1, 100, 100, State.HELD, IdLayout.defaults(), "b-nonce")).orElseThrow();
            assertEquals("b-nonce", store.read("default", 2).orElseThrow().record().incarnation());
        }
        assertTrue(hasColumn(url, table, LeaseRowReader.INCARNATION_COLUMN));
    }

    @Test
    void withoutPermissionToAlterTheTableTheStoreRefusesLayoutsButStillReadsAndWritesRecordsWithoutOne() throws SQLException {
        String url = "jdbc:h2:mem:legacy_keep;DB_CLOSE_DELAY=-1;DATABASE_TO_UPPER=false";
        JdbcTableName table = oldTableWithOneRow(url, "legacy_keep");
        try (JdbcLeaseStore store = new JdbcLeaseStore(new JdbcStoreSettings(url, "sa", "", table, false, 3_000L))) {
            long version = store.read("default", 0).orElseThrow().storeVersion();
            // The table cannot keep a layout, so it could not refuse an instance of another layout: a claim is refused.
            UnusablePoolException refused = assertThrows(UnusablePoolException.class,
                    () -> store.compareAndSet(new LeaseRecord("default", 0, "current", 2, 300, 300, State.HELD, IdLayout.defaults()), version));
            assertTrue(refused.getMessage().contains(JdbcLeaseSchema.addLayoutColumn(table)), refused.getMessage());
            assertEquals("older", store.read("default", 0).orElseThrow().record().owner(), "the refused write changed nothing");
            // The operations tool re-writes such rows as they are (no layout), and listing still works.
            assertTrue(store.compareAndSet(new LeaseRecord("default", 0, "older", 3, 1000, 1000, State.RELEASED), version).isPresent());
            assertNull(store.read("default", 0).orElseThrow().record().layout());
            assertEquals(1, store.list("default").leases().size());
        }
        assertFalse(hasLayoutColumn(url, table));
    }

    private static JdbcTableName oldTableWithOneRow(final String url, final String prefix) throws SQLException {
        JdbcTableName table = TestDatabase.uniqueTable(prefix);
        try (Connection connection = DriverManager.getConnection(url, "sa", ""); Statement statement = connection.createStatement()) {
            statement.execute(String.format(OLD_DDL, table.value()));
            statement.execute("INSERT INTO " + table.value() + " (" + LeaseRowReader.COLUMNS + ") VALUES ('default', 0, 'older', 7, 3, 1000, 1000, 'RELEASED')");
        }
        return table;
    }

    private static boolean hasColumn(final String url, final JdbcTableName table, final String column) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, "sa", "")) {
            return JdbcTables.hasColumn(connection, table, column, 3);
        }
    }

    private static boolean hasLayoutColumn(final String url, final JdbcTableName table) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, "sa", "")) {
            return JdbcTables.hasColumn(connection, table, LeaseRowReader.LAYOUT_COLUMN, 3);
        }
    }
}
