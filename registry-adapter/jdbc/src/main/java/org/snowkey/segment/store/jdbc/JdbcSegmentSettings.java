package org.snowkey.segment.store.jdbc;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.Redactor;
import org.snowkey.store.jdbc.DriverTimeouts;
import org.snowkey.store.jdbc.JdbcStoreProps;
import org.snowkey.store.jdbc.JdbcStoreSettings;
import org.snowkey.store.jdbc.JdbcTableName;
import org.snowkey.store.jdbc.JdbcUrls;

/**
 * Where the segment tables are and how long a statement may take.
 *
 * @param table         the counter table; the log table is its name plus {@code _log}
 * @param createTable   whether to create missing tables
 * @param timeoutMillis the query timeout of each statement (rounded up to whole seconds, as JDBC counts)
 * @param url           the JDBC URL, for messages only (credentials are stripped), or null to take it from the
 *                      connection's metadata on first use
 */
public record JdbcSegmentSettings(JdbcTableName table, boolean createTable, long timeoutMillis, String url) {

    public static final String DEFAULT_TABLE = "snowkey_segment";

    public static final String LOG_SUFFIX = "_log";

    public JdbcSegmentSettings {
        if (table == null) {
            throw new IllegalArgumentException("no segment table");
        }
        if (timeoutMillis < 1) {
            throw new IllegalArgumentException("the segment statement timeout is " + timeoutMillis + " ms; allowed: at least 1 ms");
        }
        // Validated here, so a name too long for its log table fails at start-up, naming both.
        logTableOf(table);
    }

    /**
     * The segment tables of the {@code jdbc-*} props: the counter table, whether to create it, the statement timeout
     * and the URL as the store settings give them.
     *
     * @throws InvalidSettingException naming {@code jdbc-table} when the name leaves no room for its log table
     */
    public static JdbcSegmentSettings of(final JdbcStoreSettings store) {
        try {
            return new JdbcSegmentSettings(store.table(), store.createTable(), store.timeoutMillis(), store.url());
        } catch (final IllegalArgumentException ex) {
            throw new InvalidSettingException(JdbcStoreProps.TABLE, store.table().value(), "a name that leaves room for its log table (plus '" + LOG_SUFFIX + "'): "
                    + JdbcTableName.RULE);
        }
    }

    public static JdbcSegmentSettings defaults() {
        return new JdbcSegmentSettings(new JdbcTableName(DEFAULT_TABLE), true, 5_000L, null);
    }

    public JdbcTableName logTable() {
        return logTableOf(table);
    }

    private static JdbcTableName logTableOf(final JdbcTableName table) {
        try {
            return new JdbcTableName(table.value() + LOG_SUFFIX);
        } catch (final IllegalArgumentException ex) {
            throw new IllegalArgumentException("segment table '" + table + "' leaves no room for its log table '" + table + LOG_SUFFIX + "': " + ex.getMessage(), ex);
        }
    }

    int timeoutSeconds() {
        return (int) Math.min(Integer.MAX_VALUE, DriverTimeouts.wholeSeconds(timeoutMillis));
    }

    String safeUrl() {
        return url == null ? null : JdbcUrls.withoutCredentials(url);
    }

    /** The URL without its credentials: the segment provider passes the URL as configured, which may carry them. */
    @Override
    public String toString() {
        return "JdbcSegmentSettings[table=" + table + ", createTable=" + createTable + ", timeoutMillis=" + timeoutMillis + ", url=" + safeUrl() + "]";
    }

    Redactor redactor() {
        return url == null ? Redactor.URLS_ONLY : Redactor.of(url);
    }
}
