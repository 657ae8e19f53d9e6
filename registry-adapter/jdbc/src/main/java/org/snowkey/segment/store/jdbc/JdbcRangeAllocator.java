package org.snowkey.segment.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import javax.sql.DataSource;

import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.RangeAllocator;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.keygen.segment.StartValues;
import org.snowkey.segment.store.SegmentKeys;
import org.snowkey.store.jdbc.JdbcTables;

/**
 * Ranges from a counter row per key, with a log row per range (DDL in {@code schema.sql}).
 *
 * <p>An allocation is one transaction: {@code UPDATE ... SET next_value = next_value + size WHERE seq_key = ?} (which
 * locks the row until commit, so concurrent allocators of the key queue up instead of retrying), the new value read
 * back in the same transaction, and the log row inserted; then commit. Either all of it is applied or none. A commit
 * that is applied but whose answer is lost leaves a logged range nobody uses, a gap: the caller's next call advances
 * the row again, from wherever it now stands, so no number can be handed out twice. The log's primary key
 * {@code (seq_key, range_first)} refuses a range starting where a logged one starts, a last line of defence should a
 * counter ever be set back by hand.
 *
 * <p>A key's row is created on first use at its start value (above every logged range of the key, should the row have
 * been deleted by hand); two allocators creating it at once is harmless (the loser's INSERT fails on the primary key
 * and is ignored). Ranges end at 2^53 - 1 at the latest. Deleting a row while allocators run is not safe.
 */
public final class JdbcRangeAllocator implements RangeAllocator {

    /** A row deleted by hand while in use is created again; more than a few rounds of that means something else is wrong. */
    private static final int MAX_ATTEMPTS = 5;

    private final JdbcSegmentTables tables;

    private final String owner;

    private final StartValues starts;

    /** Keys whose row this instance created or raised to the start value; a key is prepared once per instance. */
    private final Set<String> preparedKeys = ConcurrentHashMap.newKeySet();

    /**
     * @param dataSource connections to the database (its pool and network timeouts are the caller's)
     * @param owner      written into each log row, to tell who took a range (e.g. host, process id, instance)
     * @param starts     the first number of each key
     */
    public JdbcRangeAllocator(final DataSource dataSource, final JdbcSegmentSettings settings, final String owner, final StartValues starts) {
        this.owner = SegmentKeys.checkOwner(owner);
        this.tables = new JdbcSegmentTables(dataSource, settings);
        this.starts = starts;
    }

    @Override
    public NumberRange allocate(final String key, final long size) {
        SegmentKeys.check(key);
        long wanted = Math.min(SegmentKeys.checkSize(key, size), NumberRange.MAX_KEY);
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            if (!preparedKeys.contains(key)) {
                prepare(key);
                preparedKeys.add(key);
            }
            Optional<NumberRange> range = tables.transaction("allocate " + wanted + " numbers of key '" + key + "'", connection -> take(connection, key, wanted));
            if (range.isPresent()) {
                return range.get();
            }
            // The row is gone (deleted by hand): it is created again, at the start value, on the next round.
            preparedKeys.remove(key);
        }
        throw new RangeUnavailableException("SnowKey could not allocate numbers of key '" + key + "' in " + tables.describe() + ": its counter row vanished "
                + MAX_ATTEMPTS + " times in a row (is something deleting rows of " + tables.table() + "?)");
    }

    /**
     * Creates the key's row at its start value, or raises a row below the start value to it. A row created while the
     * log already holds ranges of the key (the row was deleted by hand) starts above the highest of them instead.
     */
    private void prepare(final String key) {
        long start = starts.startOf(key);
        tables.autoCommit("create the counter row of key '" + key + "' at " + start, connection -> {
            long now = System.currentTimeMillis();
            // Looked up first: on every restart the row exists, and a failing INSERT is logged as a warning by some drivers.
            if (readNext(connection, key, false).isEmpty()) {
                try (PreparedStatement insert = tables.prepare(connection, "INSERT INTO " + tables.table() + " (seq_key, next_value, updated_at) VALUES (?, ?, ?)")) {
                    insert.setString(1, key);
                    insert.setLong(2, Math.max(start, highestLogged(connection, key) + 1));
                    insert.setLong(3, now);
                    insert.executeUpdate();
                    return null;
                } catch (final SQLException ex) {
                    // Another allocator created it a moment ago; anything else is an error.
                    if (!JdbcTables.isConstraintViolation(ex)) {
                        throw ex;
                    }
                }
            }
            // Only ever raise the row, so allocators configured with different starts cannot set it back.
            try (PreparedStatement raise = tables.prepare(connection, "UPDATE " + tables.table() + " SET next_value = ?, updated_at = ? WHERE seq_key = ? AND next_value < ?")) {
                raise.setLong(1, start);
                raise.setLong(2, now);
                raise.setString(3, key);
                raise.setLong(4, start);
                raise.executeUpdate();
            }
            return null;
        });
    }

    /** The transaction's work: advance the row, read it back, log the range. Empty when the row does not exist. */
    private Optional<NumberRange> take(final Connection connection, final String key, final long wanted) throws SQLException {
        long now = System.currentTimeMillis();
        NumberRange range;
        try (PreparedStatement advance = tables.prepare(connection,
                "UPDATE " + tables.table() + " SET next_value = next_value + ?, updated_at = ? WHERE seq_key = ? AND next_value <= ?")) {
            advance.setLong(1, wanted);
            advance.setLong(2, now);
            advance.setString(3, key);
            // The whole range fits below 2^53; the bound also keeps next_value + size far from BIGINT's end.
            advance.setLong(4, NumberRange.MAX_KEY + 1 - wanted);
            if (advance.executeUpdate() == 1) {
                range = checked(key, readNext(connection, key, false).orElseThrow(() -> new SQLException("the row of key '" + key + "' vanished under its lock")) - wanted, wanted);
            } else {
                OptionalLong next = readNext(connection, key, true);
                if (next.isEmpty()) {
                    return Optional.empty();
                }
                range = takeTail(connection, key, next.getAsLong(), now);
            }
        }
        try (PreparedStatement log = tables.prepare(connection, "INSERT INTO " + tables.logTable()
                + " (seq_key, range_first, range_last, owner, allocated_at) VALUES (?, ?, ?, ?, ?)")) {
            log.setString(1, key);
            log.setLong(2, range.first());
            log.setLong(3, range.last());
            log.setString(4, owner);
            log.setLong(5, now);
            log.executeUpdate();
        }
        return Optional.of(range);
    }

    /** Fewer numbers than asked, up to 2^53 - 1, when that is all the key has left; the row is locked by the caller's read. */
    private NumberRange takeTail(final Connection connection, final String key, final long next, final long now) throws SQLException {
        if (next > NumberRange.MAX_KEY) {
            throw new RangeUnavailableException("SnowKey segment key '" + key + "' has used up its numbers in " + tables.describe() + ": next_value is " + next
                    + ", above 2^53 - 1 (" + NumberRange.MAX_KEY + "), the highest segment number; use another key");
        }
        NumberRange range = checked(key, next, NumberRange.MAX_KEY - next + 1);
        try (PreparedStatement end = tables.prepare(connection, "UPDATE " + tables.table() + " SET next_value = ?, updated_at = ? WHERE seq_key = ? AND next_value = ?")) {
            end.setLong(1, NumberRange.MAX_KEY + 1);
            end.setLong(2, now);
            end.setString(3, key);
            end.setLong(4, next);
            if (end.executeUpdate() != 1) {
                throw new SQLException("the row of key '" + key + "' changed under its lock");
            }
        }
        return range;
    }

    private NumberRange checked(final String key, final long first, final long size) {
        if (first < 1) {
            throw new RangeUnavailableException("SnowKey found the counter row of key '" + key + "' in " + tables.describe() + " at " + first
                    + ", not a segment number (1 to 2^53 - 1): the row was changed by hand; set next_value above every logged range of the key");
        }
        return new NumberRange(first, first + size - 1);
    }

    /** The row's value; with {@code lock}, the row stays locked until the transaction ends. */
    private OptionalLong readNext(final Connection connection, final String key, final boolean lock) throws SQLException {
        try (PreparedStatement select = tables.prepare(connection, "SELECT next_value FROM " + tables.table() + " WHERE seq_key = ?" + (lock ? " FOR UPDATE" : ""))) {
            select.setString(1, key);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? OptionalLong.of(row.getLong(1)) : OptionalLong.empty();
            }
        }
    }

    /** The last number of the key's highest logged range, or 0 when none is logged. */
    private long highestLogged(final Connection connection, final String key) throws SQLException {
        // The primary key's order: with no overlap, the range starting highest also ends highest.
        try (PreparedStatement select = tables.prepare(connection, "SELECT range_last FROM " + tables.logTable() + " WHERE seq_key = ? ORDER BY range_first DESC")) {
            select.setMaxRows(1);
            select.setString(1, key);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getLong(1) : 0L;
            }
        }
    }

    @Override
    public String describe() {
        return tables.describe();
    }

    @Override
    public String toString() {
        return "JdbcRangeAllocator[" + describe() + ", owner=" + owner + "]";
    }
}
