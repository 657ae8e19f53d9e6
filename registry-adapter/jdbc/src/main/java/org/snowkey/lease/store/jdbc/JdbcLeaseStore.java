package org.snowkey.lease.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.keygen.config.Redactor;
import org.snowkey.lease.UnusablePoolException;
import org.snowkey.lease.store.CorruptLeaseRecordException;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.lease.store.LeaseStoreUnavailableException;
import org.snowkey.lease.store.StoredLease;
import org.snowkey.store.StoreUnavailableException;
import org.snowkey.store.jdbc.DriverTimeouts;
import org.snowkey.store.jdbc.JdbcPools;
import org.snowkey.store.jdbc.JdbcStoreProps;
import org.snowkey.store.jdbc.JdbcStoreSettings;
import org.snowkey.store.jdbc.JdbcTables;

import com.zaxxer.hikari.HikariDataSource;

/**
 * Lease records in a database table, one row per (pool, worker id), reached through a small HikariCP pool.
 *
 * <p>Atomicity comes from single statements in auto-commit mode: a compare-and-set is
 * {@code UPDATE ... WHERE pool = ? AND worker_id = ? AND version = ?} and wins exactly when the update count is
 * 1; a create is an INSERT that loses on the primary key. No transaction spans two statements, so no lock is
 * ever held across a network round trip and every database with row-level atomic updates behaves the same.
 *
 * <p>The table is created on first use when missing (see {@link JdbcLeaseSchema}); nothing connects before
 * the first call, so constructing a store never fails on an unreachable database.
 */
public final class JdbcLeaseStore implements LeaseStore {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcLeaseStore.class);

    /**
     * Versions of a freshly created row start at the creation time shifted left by 20 bits, not at 1: if an
     * operator deletes a row and it is created again, a holder still carrying a version of the old row can
     * never match a version of the new one (a row would need a million writes per millisecond of its life to
     * catch up). This only guards compare-and-set against the deleted-and-recreated case; uniqueness of ids
     * never depends on it.
     */
    private static final int VERSION_TIME_SHIFT = 20;

    /** Some drivers abort a connection whose network timeout expired on this executor; the work is tiny. */
    private static final Executor NETWORK_TIMEOUT_EXECUTOR = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "snowkey-jdbc-network-timeout");
        thread.setDaemon(true);
        return thread;
    });

    private final JdbcStoreSettings settings;

    private final Redactor redactor;

    private final HikariDataSource dataSource;

    private final int timeoutSeconds;

    private final String table;

    private final int networkTimeoutMillis;

    private volatile boolean tableReady;

    /** False for a table of an older SnowKey that could not be given the layout column: records carrying a layout are then refused. */
    private volatile boolean layoutColumn = true;

    /**
     * False for a table of an older SnowKey that could not be given the incarnation column: records are then written
     * without it, and a lease judges its own claims as before incarnations (LeaseRecord.isExactly).
     */
    private volatile boolean incarnationColumn = true;

    public JdbcLeaseStore(final JdbcStoreSettings settings) {
        this.settings = settings;
        this.redactor = settings.redactor();
        this.table = settings.table().value();
        this.timeoutSeconds = (int) Math.min(Integer.MAX_VALUE, DriverTimeouts.wholeSeconds(settings.timeoutMillis()));
        // Above the statement timeout: a slow statement is ended by the database first, a silent network by this.
        this.networkTimeoutMillis = (int) Math.min(Integer.MAX_VALUE, 2L * settings.timeoutMillis());
        this.dataSource = openPool(settings, redactor);
    }

    /** The store layer's failure as the lease protocol's own: a lease caller fails closed on a store it cannot reach. */
    private static HikariDataSource openPool(final JdbcStoreSettings settings, final Redactor redactor) {
        try {
            return JdbcPools.open(settings, redactor, "snowkey-lease-" + settings.table().value(), 2);
        } catch (final StoreUnavailableException ex) {
            throw new LeaseStoreUnavailableException(ex.getMessage(), ex.getCause());
        }
    }

    @Override
    public String describe() {
        return "jdbc " + settings.safeUrl() + " table " + table;
    }

    @Override
    public String locationOf(final String pool, final int workerId) {
        return "row (pool='" + pool + "', worker_id=" + workerId + ") of table " + table + " in " + settings.safeUrl();
    }

    @Override
    public Optional<StoredLease> read(final String pool, final int workerId) {
        return withConnection("read " + locationOf(pool, workerId), connection -> {
            try (PreparedStatement select = prepare(connection, "SELECT " + columns() + " FROM " + table + " WHERE pool = ? AND worker_id = ?")) {
                select.setString(1, pool);
                select.setInt(2, workerId);
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? Optional.of(LeaseRowReader.read(row, locationOf(pool, workerId), layoutColumn, incarnationColumn)) : Optional.<StoredLease>empty();
                }
            }
        });
    }

    @Override
    public PoolListing list(final String pool) {
        return withConnection("list pool '" + pool + "' of table " + table + " in " + settings.safeUrl(), connection -> {
            Map<Integer, StoredLease> leases = new TreeMap<>();
            Map<Integer, CorruptLeaseRecordException> corrupt = new TreeMap<>();
            try (PreparedStatement select = prepare(connection, "SELECT " + columns() + " FROM " + table + " WHERE pool = ? ORDER BY worker_id")) {
                select.setString(1, pool);
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        // worker_id is the primary key column and typed INT by our DDL; a hand-made table with a text
                        // column holding garbage cannot be attributed to a number, so it fails the whole listing.
                        int workerId = workerIdOf(row, pool);
                        try {
                            leases.put(workerId, LeaseRowReader.read(row, locationOf(pool, workerId), layoutColumn, incarnationColumn));
                        } catch (final CorruptLeaseRecordException ex) {
                            corrupt.put(workerId, ex);
                        }
                    }
                }
            }
            // TreeMaps keep the listing in worker id order, which scans and the operations listing rely on.
            return new PoolListing(Collections.unmodifiableMap(leases), Collections.unmodifiableMap(corrupt));
        });
    }

    private int workerIdOf(final ResultSet row, final String pool) throws SQLException {
        String text = row.getString(2);
        try {
            return Integer.parseInt(text.trim());
        } catch (final NumberFormatException | NullPointerException ex) {
            throw new CorruptLeaseRecordException("a row of pool '" + pool + "' in table " + table + " in " + settings.safeUrl(), LeaseRowReader.content(row, layoutColumn, incarnationColumn), ex);
        }
    }

    @Override
    public Optional<Long> create(final LeaseRecord record) {
        check(record);
        long version = Math.max(1L, System.currentTimeMillis()) << VERSION_TIME_SHIFT;
        return withConnection("create " + locationOf(record.pool(), record.workerId()), connection -> {
            refuseUnstorableLayout(record);
            try (PreparedStatement insert = prepare(connection, "INSERT INTO " + table + " (" + columns() + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?"
                    + (layoutColumn ? ", ?" : "") + (incarnationColumn ? ", ?" : "") + ")")) {
                insert.setString(1, record.pool());
                insert.setInt(2, record.workerId());
                bindWritten(insert, 2, record, version);
                insert.executeUpdate();
                return Optional.of(version);
            } catch (final SQLException ex) {
                // Lost the race for the primary key: another process created the row first. Any other constraint
                // failure (a value too long for its column, say) is an error, so the row's presence is checked.
                if (JdbcTables.isConstraintViolation(ex) && rowExists(connection, record.pool(), record.workerId())) {
                    return Optional.<Long>empty();
                }
                throw ex;
            }
        });
    }

    @Override
    public Optional<Long> compareAndSet(final LeaseRecord record, final long expectedStoreVersion) {
        check(record);
        long version = expectedStoreVersion + 1;
        return withConnection("update " + locationOf(record.pool(), record.workerId()), connection -> {
            refuseUnstorableLayout(record);
            try (PreparedStatement update = prepare(connection, "UPDATE " + table
                    + " SET owner = ?, version = ?, fencing_token = ?, expires_at = ?, reserved_until = ?, state = ?"
                    + (layoutColumn ? ", " + LeaseRowReader.LAYOUT_COLUMN + " = ?" : "") + (incarnationColumn ? ", " + LeaseRowReader.INCARNATION_COLUMN + " = ?" : "")
                    + " WHERE pool = ? AND worker_id = ? AND version = ?")) {
                int column = bindWritten(update, 0, record, version);
                update.setString(++column, record.pool());
                update.setInt(++column, record.workerId());
                update.setLong(++column, expectedStoreVersion);
                return update.executeUpdate() == 1 ? Optional.of(version) : Optional.<Long>empty();
            }
        });
    }

    @Override
    public boolean delete(final String pool, final int workerId, final long expectedStoreVersion) {
        return withConnection("delete " + locationOf(pool, workerId), connection -> {
            try (PreparedStatement delete = prepare(connection, "DELETE FROM " + table + " WHERE pool = ? AND worker_id = ? AND version = ?")) {
                delete.setString(1, pool);
                delete.setInt(2, workerId);
                delete.setLong(3, expectedStoreVersion);
                return delete.executeUpdate() == 1;
            }
        });
    }

    @Override
    public void close() {
        dataSource.close();
    }

    @Override
    public String toString() {
        return "JdbcLeaseStore[" + describe() + "]";
    }

    /**
     * Binds what a write sets, in the order of {@link #columns()} after pool and worker_id (which the INSERT binds
     * before and the UPDATE's WHERE after): owner, version, fencing token, expiry, reservation, state and, where the
     * table has them, the layout and the incarnation.
     *
     * @return the index of the last parameter bound
     */
    private int bindWritten(final PreparedStatement statement, final int before, final LeaseRecord record, final long version) throws SQLException {
        int column = before;
        statement.setString(++column, record.owner());
        statement.setLong(++column, version);
        statement.setLong(++column, record.fencingToken());
        statement.setLong(++column, record.expiresAt());
        statement.setLong(++column, record.reservedUntil());
        statement.setString(++column, record.state().name());
        if (layoutColumn) {
            statement.setString(++column, record.layoutText());
        }
        if (incarnationColumn) {
            statement.setString(++column, record.incarnation());
        }
        return column;
    }

    /** Refuses to write what {@link LeaseRowReader} would later report as corrupt. */
    private static void check(final LeaseRecord record) {
        if (record.owner() == null || record.owner().isBlank() || record.pool() == null || record.pool().isBlank() || record.workerId() < 0
                || record.fencingToken() < 0 || record.fencingToken() > LeaseRowReader.MAX_COUNTER || record.expiresAt() < 0
                || record.expiresAt() > LeaseRowReader.MAX_TIME_MILLIS || record.reservedUntil() < 0 || record.reservedUntil() > LeaseRowReader.MAX_TIME_MILLIS
                || record.state() == null || record.incarnation() != null && (record.incarnation().isBlank()
                        || record.incarnation().length() > LeaseRowReader.MAX_INCARNATION_CHARS)) {
            throw new IllegalArgumentException("SnowKey refuses to store an invalid lease record: " + record);
        }
    }

    private boolean rowExists(final Connection connection, final String pool, final int workerId) throws SQLException {
        try (PreparedStatement select = prepare(connection, "SELECT 1 FROM " + table + " WHERE pool = ? AND worker_id = ?")) {
            select.setString(1, pool);
            select.setInt(2, workerId);
            try (ResultSet row = select.executeQuery()) {
                return row.next();
            }
        }
    }

    private PreparedStatement prepare(final Connection connection, final String sql) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        statement.setQueryTimeout(timeoutSeconds);
        return statement;
    }

    private <T> T withConnection(final String action, final SqlWork<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            limitNetworkWaits(connection);
            try {
                if (!tableReady) {
                    ensureTable(connection);
                }
                return work.run(connection);
            } catch (final SQLException ex) {
                // The pool hands a connection used in the last half second out again without testing it, and not every
                // driver's broken-connection error is one HikariCP recognises (H2's "session closed"): a connection whose
                // statement failed is not reused, or a lease could keep failing on a dead one after the database is back.
                dataSource.evictConnection(connection);
                throw ex;
            }
        } catch (final SQLException ex) {
            throw new LeaseStoreUnavailableException("SnowKey could not " + action + ": " + redactor.messages(ex), redactor.clean(ex));
        }
    }

    /**
     * Bounds every socket read of this borrowing (JDBC's network timeout; HikariCP restores the pool's value when
     * the connection returns). {@link DriverTimeouts} sets the same through the properties of the drivers SnowKey
     * knows, including connection set-up; this standard call covers the drivers it does not know.
     */
    private void limitNetworkWaits(final Connection connection) throws SQLException {
        try {
            connection.setNetworkTimeout(NETWORK_TIMEOUT_EXECUTOR, networkTimeoutMillis);
        } catch (final SQLFeatureNotSupportedException ex) {
            // Embedded databases (H2 in memory) have no network to wait on.
        }
    }

    private void ensureTable(final Connection connection) throws SQLException {
        synchronized (this) {
            if (tableReady) {
                return;
            }
            if (JdbcTables.createIfMissing(connection, settings.table(), JdbcLeaseSchema.ddl(settings.table()), settings.createTable(),
                    JdbcStoreProps.CREATE_TABLE + " is false", timeoutSeconds)) {
                LOG.info("SnowKey created lease table {} in {}", table, settings.safeUrl());
            }
            layoutColumn = ensureColumn(connection, LeaseRowReader.LAYOUT_COLUMN, JdbcLeaseSchema.addLayoutColumn(settings.table()),
                    "SnowKey refuses to claim worker ids in it until the column is added, since it could not refuse an instance of another id layout");
            incarnationColumn = ensureColumn(connection, LeaseRowReader.INCARNATION_COLUMN, JdbcLeaseSchema.addIncarnationColumn(settings.table()),
                    "two live processes with one instance id are kept apart by the random fencing token step alone (1 in 2^31)");
            tableReady = true;
        }
    }

    /**
     * A table of an older SnowKey lacks the layout column or the incarnation column: each is added when SnowKey may
     * change the schema (jdbc-create-table). Whether a column is there is decided only by the database's "undefined
     * column" answer ({@link JdbcTables#hasColumn}); a probe that gets no answer fails this call and the next call probes
     * again. Otherwise a warning says what the missing column costs and names the statement that adds it:
     * <ul>
     * <li>A table that keeps lacking the layout column can hold no layout, so {@link #refuseUnstorableLayout} refuses
     * every write that carries one: the one-layout-per-pool check is never switched off.</li>
     * <li>A table that keeps lacking the incarnation column (no permission to alter it) still works: rows are written
     * without the nonce, and two live processes with one instance id are then kept apart by the fencing token's random
     * step alone (a 1 in 2^31 chance of one adopting the other's claim), as before the column existed.</li>
     * </ul>
     *
     * @param withoutIt what the table lacking the column means, for the warning
     * @return whether the table has the column now
     */
    private boolean ensureColumn(final Connection connection, final String column, final String ddl, final String withoutIt) throws SQLException {
        if (JdbcTables.hasColumn(connection, settings.table(), column, timeoutSeconds)) {
            return true;
        }
        if (settings.createTable()) {
            addColumn(connection, column, ddl);
            return true;
        }
        LOG.warn("SnowKey lease table {} in {} has no column {} and {} is false: {}. Run: {}", table, settings.safeUrl(), column, JdbcStoreProps.CREATE_TABLE,
                withoutIt, ddl);
        return false;
    }

    /** Adds a column; a failure counts only when the column is still missing afterwards (a concurrent start, or an ALTER applied with its answer lost). */
    private void addColumn(final Connection connection, final String column, final String ddl) throws SQLException {
        try {
            JdbcLeaseSchema.execute(connection, ddl, timeoutSeconds);
            LOG.info("SnowKey added column {} to lease table {} in {}", column, table, settings.safeUrl());
        } catch (final SQLException ex) {
            if (!JdbcTables.hasColumn(connection, settings.table(), column, timeoutSeconds)) {
                throw ex;
            }
        }
    }

    /**
     * A record that carries a layout is never written into a table that cannot keep it: the record would read back as
     * "layout unknown" and let an instance of another layout claim numbers of the pool. Records without a layout
     * (the operations tool re-writing a row of such a table) are written as they are.
     */
    private void refuseUnstorableLayout(final LeaseRecord record) {
        if (!layoutColumn && record.layout() != null) {
            throw new UnusablePoolException("SnowKey lease table " + table + " in " + settings.safeUrl() + " has no column " + LeaseRowReader.LAYOUT_COLUMN
                    + ", so it cannot keep the id layout of pool '" + record.pool() + "' and could not refuse an instance of another layout (which would "
                    + "issue the same ids); SnowKey may not add it (" + JdbcStoreProps.CREATE_TABLE + " is false). Run: "
                    + JdbcLeaseSchema.addLayoutColumn(settings.table()));
        }
    }

    private String columns() {
        return LeaseRowReader.columns(layoutColumn, incarnationColumn);
    }

    /** One unit of work on a borrowed connection. */
    @FunctionalInterface
    private interface SqlWork<T> {

        T run(Connection connection) throws SQLException;
    }
}
