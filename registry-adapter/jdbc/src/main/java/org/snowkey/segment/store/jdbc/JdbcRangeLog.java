package org.snowkey.segment.store.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;

import javax.sql.DataSource;

import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.segment.store.RangeLog;
import org.snowkey.segment.store.RangeLogEntry;
import org.snowkey.segment.store.SegmentKeys;

/** The segment tables read for operators: keys, counters and the most recent log rows (see {@link JdbcRangeAllocator}). */
public final class JdbcRangeLog implements RangeLog {

    private final JdbcSegmentTables tables;

    public JdbcRangeLog(final DataSource dataSource, final JdbcSegmentSettings settings) {
        this.tables = new JdbcSegmentTables(dataSource, settings);
    }

    @Override
    public List<String> keys() {
        return tables.autoCommit("list the segment keys", connection -> {
            List<String> result = new ArrayList<>();
            try (PreparedStatement select = tables.prepare(connection, "SELECT seq_key FROM " + tables.table() + " ORDER BY seq_key");
                    ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    result.add(rows.getString(1));
                }
            }
            return result;
        });
    }

    @Override
    public OptionalLong nextValue(final String key) {
        SegmentKeys.check(key);
        return tables.autoCommit("read the counter of key '" + key + "'", connection -> {
            try (PreparedStatement select = tables.prepare(connection, "SELECT next_value FROM " + tables.table() + " WHERE seq_key = ?")) {
                select.setString(1, key);
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? OptionalLong.of(row.getLong(1)) : OptionalLong.empty();
                }
            }
        });
    }

    @Override
    public List<RangeLogEntry> recent(final String key, final int limit) {
        SegmentKeys.check(key);
        if (limit < 1) {
            throw new IllegalArgumentException("a range log listing needs a limit of at least 1, got " + limit);
        }
        return tables.autoCommit("read the range log of key '" + key + "'", connection -> {
            List<RangeLogEntry> result = new ArrayList<>();
            // Newest first by the primary key's order, so the database stops after the limit.
            try (PreparedStatement select = tables.prepare(connection, "SELECT range_first, range_last, owner, allocated_at FROM " + tables.logTable()
                    + " WHERE seq_key = ? ORDER BY range_first DESC")) {
                select.setMaxRows(limit);
                select.setString(1, key);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        result.add(entry(key, rows.getLong(1), rows.getLong(2), rows.getString(3), rows.getLong(4)));
                    }
                }
            }
            Collections.reverse(result);
            return result;
        });
    }

    /** A row no range could come from is reported, never skipped: skipping it could hide an overlap. */
    private RangeLogEntry entry(final String key, final long first, final long last, final String owner, final long allocatedAt) throws SQLException {
        try {
            return new RangeLogEntry(key, new NumberRange(first, last), owner, allocatedAt);
        } catch (final IllegalArgumentException ex) {
            throw new IllegalStateException("SnowKey found a corrupt row in " + tables.describe() + ": seq_key='" + key + "', range_first=" + first
                    + ", range_last=" + last + ", owner=" + owner + " (" + ex.getMessage() + ")", ex);
        }
    }

    @Override
    public String describe() {
        return tables.describe();
    }
}
