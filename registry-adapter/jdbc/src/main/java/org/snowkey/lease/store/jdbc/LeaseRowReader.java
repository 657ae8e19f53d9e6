package org.snowkey.lease.store.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;

import org.snowkey.lease.store.CorruptLeaseRecordException;
import org.snowkey.lease.store.LayoutText;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.StoredLease;

/**
 * Turns one row of the lease table into a {@link StoredLease}, or a {@link CorruptLeaseRecordException} that
 * quotes the row. Every column is read as text and parsed here, so a row edited by hand, or a table created by
 * hand with looser types, is reported with exactly what is stored instead of being coerced (a NULL number read
 * with {@code getLong} would silently become 0 and make the number look free).
 */
final class LeaseRowReader {

    /** The columns in the order every SELECT of the store lists them. */
    static final String COLUMNS = "pool, worker_id, owner, version, fencing_token, expires_at, reserved_until, state";

    /** The column of the writer's id layout, added after the first release of the table; see {@link JdbcLeaseSchema}. */
    static final String LAYOUT_COLUMN = "id_layout";

    /** {@link #COLUMNS} and the layout column, for tables that have it. */
    static final String COLUMNS_WITH_LAYOUT = COLUMNS + ", " + LAYOUT_COLUMN;

    /** The column of the claiming lease's nonce, added after the layout column; see {@link JdbcLeaseSchema}. */
    static final String INCARNATION_COLUMN = "incarnation";

    /** Longest incarnation a row holds (the column's width); SnowKey writes 36 characters. */
    static final int MAX_INCARNATION_CHARS = 64;

    /** The columns of a SELECT of a table with or without the two later columns, in the order {@link #read} expects. */
    static String columns(final boolean withLayout, final boolean withIncarnation) {
        return COLUMNS + (withLayout ? ", " + LAYOUT_COLUMN : "") + (withIncarnation ? ", " + INCARNATION_COLUMN : "");
    }

    private static final int MAX_CONTENT_CHARS = 1_000;

    /**
     * 9999-12-31T23:59:59.999Z. A lease time beyond it is a damaged row, not a lease: taken at face value it would
     * overflow the successor's floor ({@code reservedUntil + 1}) or keep a number out of use forever.
     */
    static final long MAX_TIME_MILLIS = 253_402_300_799_999L;

    /** Counters stay far from overflow: a successor writes {@code fencing_token + 1}, every write {@code version + 1}. */
    static final long MAX_COUNTER = Long.MAX_VALUE / 2;

    private LeaseRowReader() {
    }

    /** The raw text of the current row, for messages. */
    static String content(final ResultSet row) throws SQLException {
        return content(row, false);
    }

    /** The raw text of the current row, for messages; {@code withLayout} when the SELECT listed {@link #COLUMNS_WITH_LAYOUT}. */
    static String content(final ResultSet row, final boolean withLayout) throws SQLException {
        return content(row, withLayout, false);
    }

    /** The raw text of the current row of a SELECT of {@link #columns(boolean, boolean)}, for messages. */
    static String content(final ResultSet row, final boolean withLayout, final boolean withIncarnation) throws SQLException {
        String content = "pool=" + row.getString(1) + ", worker_id=" + row.getString(2) + ", owner=" + row.getString(3) + ", version=" + row.getString(4)
                + ", fencing_token=" + row.getString(5) + ", expires_at=" + row.getString(6) + ", reserved_until=" + row.getString(7)
                + ", state=" + row.getString(8) + (withLayout ? ", id_layout=" + row.getString(9) : "")
                + (withIncarnation ? ", incarnation=" + row.getString(withLayout ? 10 : 9) : "");
        return content.length() <= MAX_CONTENT_CHARS ? content : content.substring(0, MAX_CONTENT_CHARS) + "...";
    }

    /**
     * Parses the current row.
     *
     * @param location where the row lives, for the corruption message
     * @throws CorruptLeaseRecordException when a value is missing, negative, out of range or unknown
     */
    static StoredLease read(final ResultSet row, final String location) throws SQLException {
        return read(row, location, false);
    }

    /**
     * Parses the current row of a SELECT of {@link #COLUMNS_WITH_LAYOUT} ({@code withLayout}) or {@link #COLUMNS}.
     *
     * @throws CorruptLeaseRecordException when a value is missing, negative, out of range or unknown, or the layout is not one SnowKey wrote
     */
    static StoredLease read(final ResultSet row, final String location, final boolean withLayout) throws SQLException {
        return read(row, location, withLayout, false);
    }

    /**
     * Parses the current row of a SELECT of {@link #columns(boolean, boolean)}.
     *
     * @throws CorruptLeaseRecordException when a value is missing, negative, out of range or unknown, or the layout is not one SnowKey wrote
     */
    static StoredLease read(final ResultSet row, final String location, final boolean withLayout, final boolean withIncarnation) throws SQLException {
        String content = content(row, withLayout, withIncarnation);
        try {
            String pool = required(row.getString(1), "pool");
            int workerId = (int) bounded(row.getString(2), "worker_id", Integer.MAX_VALUE);
            String owner = required(row.getString(3), "owner");
            long version = bounded(row.getString(4), "version", MAX_COUNTER);
            long fencingToken = bounded(row.getString(5), "fencing_token", MAX_COUNTER);
            long expiresAt = bounded(row.getString(6), "expires_at", MAX_TIME_MILLIS);
            long reservedUntil = bounded(row.getString(7), "reserved_until", MAX_TIME_MILLIS);
            LeaseRecord.State state = state(row.getString(8));
            // NULL (a row of an older SnowKey, or a table without the column): unknown, the next writer adopts the number.
            String layout = withLayout ? row.getString(9) : null;
            // NULL: a row of an older SnowKey, or written by hand; blank is damage, not "none".
            String incarnation = withIncarnation ? row.getString(withLayout ? 10 : 9) : null;
            if (incarnation != null && incarnation.isBlank()) {
                throw new IllegalArgumentException("incarnation is blank");
            }
            return new StoredLease(new LeaseRecord(pool, workerId, owner, fencingToken, expiresAt, reservedUntil, state,
                    layout == null ? null : LayoutText.parse(layout), incarnation), version);
        } catch (final IllegalArgumentException ex) {
            throw new CorruptLeaseRecordException(location, content, ex);
        }
    }

    private static String required(final String value, final String column) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(column + " is empty");
        }
        return value;
    }

    private static long bounded(final String value, final String column, final long max) {
        long result;
        try {
            result = Long.parseLong(required(value, column).trim());
        } catch (final NumberFormatException ex) {
            throw new IllegalArgumentException(column + " '" + value + "' is not a whole number", ex);
        }
        if (result < 0) {
            throw new IllegalArgumentException(column + " " + result + " is negative");
        }
        if (result > max) {
            throw new IllegalArgumentException(column + " " + result + " is above " + max + ", the largest value a lease can hold");
        }
        return result;
    }

    private static LeaseRecord.State state(final String value) {
        String text = required(value, "state").trim().toUpperCase(Locale.ROOT);
        for (LeaseRecord.State each : LeaseRecord.State.values()) {
            if (each.name().equals(text)) {
                return each;
            }
        }
        throw new IllegalArgumentException("state '" + value + "' is neither HELD nor RELEASED");
    }
}
