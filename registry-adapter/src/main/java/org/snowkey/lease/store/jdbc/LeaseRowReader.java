package org.snowkey.lease.store.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;

import org.snowkey.lease.store.CorruptLeaseRecordException;
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

    private static final int MAX_CONTENT_CHARS = 1_000;

    private LeaseRowReader() {
    }

    /** The raw text of the current row, for messages. */
    static String content(final ResultSet row) throws SQLException {
        String content = "pool=" + row.getString(1) + ", worker_id=" + row.getString(2) + ", owner=" + row.getString(3) + ", version=" + row.getString(4)
                + ", fencing_token=" + row.getString(5) + ", expires_at=" + row.getString(6) + ", reserved_until=" + row.getString(7)
                + ", state=" + row.getString(8);
        return content.length() <= MAX_CONTENT_CHARS ? content : content.substring(0, MAX_CONTENT_CHARS) + "...";
    }

    /**
     * Parses the current row.
     *
     * @param location where the row lives, for the corruption message
     * @throws CorruptLeaseRecordException when a value is missing, negative or unknown
     */
    static StoredLease read(final ResultSet row, final String location) throws SQLException {
        String content = content(row);
        try {
            String pool = required(row.getString(1), "pool");
            int workerId = Math.toIntExact(nonNegative(row.getString(2), "worker_id"));
            String owner = required(row.getString(3), "owner");
            long version = nonNegative(row.getString(4), "version");
            long fencingToken = nonNegative(row.getString(5), "fencing_token");
            long expiresAt = nonNegative(row.getString(6), "expires_at");
            long reservedUntil = nonNegative(row.getString(7), "reserved_until");
            LeaseRecord.State state = state(row.getString(8));
            return new StoredLease(new LeaseRecord(pool, workerId, owner, fencingToken, expiresAt, reservedUntil, state), version);
        } catch (final IllegalArgumentException | ArithmeticException ex) {
            throw new CorruptLeaseRecordException(location, content, ex);
        }
    }

    private static String required(final String value, final String column) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(column + " is empty");
        }
        return value;
    }

    private static long nonNegative(final String value, final String column) {
        long result;
        try {
            result = Long.parseLong(required(value, column).trim());
        } catch (final NumberFormatException ex) {
            throw new IllegalArgumentException(column + " '" + value + "' is not a whole number", ex);
        }
        if (result < 0) {
            throw new IllegalArgumentException(column + " " + result + " is negative");
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
