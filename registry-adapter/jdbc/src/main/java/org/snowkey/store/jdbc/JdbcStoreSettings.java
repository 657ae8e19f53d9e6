package org.snowkey.store.jdbc;

import org.snowkey.keygen.config.Redactor;
import org.snowkey.keygen.config.SettingText;
import org.snowkey.keygen.config.UrlCredentials;

/**
 * How to reach one of SnowKey's tables (the lease table or the segment counter table) through a pool of its own.
 *
 * @param url the JDBC URL as configured (may carry credentials; only {@link #safeUrl()} goes into messages)
 * @param username the user, or null to let the URL or driver decide
 * @param password the password, or null; never printed
 * @param table the table
 * @param createTable whether to create the table when it is missing
 * @param timeoutMillis how long one connection attempt or statement may take before the store reports the
 *                      database unavailable; lease renewals and range fetches must fail fast enough to retry in time
 */
public record JdbcStoreSettings(String url, String username, String password, JdbcTableName table, boolean createTable, long timeoutMillis) {

    /** HikariCP refuses connection timeouts below 250 ms. */
    public static final long MIN_TIMEOUT_MILLIS = 250L;

    public static final long DEFAULT_TIMEOUT_MILLIS = 5_000L;

    public JdbcStoreSettings {
        if (url == null || !url.startsWith("jdbc:")) {
            throw new IllegalArgumentException("a JDBC URL starts with 'jdbc:', got '" + JdbcUrls.withoutCredentials(url) + "'");
        }
        if (table == null) {
            throw new IllegalArgumentException("no table");
        }
        timeoutMillis = Math.max(MIN_TIMEOUT_MILLIS, timeoutMillis);
    }

    public String safeUrl() {
        return JdbcUrls.withoutCredentials(url);
    }

    /**
     * What tells this store apart from another, for the scope keys of the JDBC lease and segment allocator: the URL
     * without credentials, the table, and every user that connects, {@code jdbc-username} and any user the URL itself
     * gives ({@code ?user=}, {@code user:password@}). An unqualified table lies in the connecting user's default schema
     * (PostgreSQL's {@code "$user"} on the search path), so {@code ?user=alice} and {@code ?user=bob} on one URL may
     * reach two lease tables, two pools; stripping the URL's user with its password made them one scope, and the JVM
     * then issued the ids of bob's key generator on a worker id of alice's pool, which bob's other instances may hold
     * too. Which user a driver prefers when both are set differs, so both are kept; one table reached under two
     * spellings costs an extra worker id, never uniqueness. The URL's users are kept as written, in order, repeats
     * included ({@link UrlCredentials#usersAsWritten}), and escaped so that no name forges a separator: which one a
     * driver connects as depends on all of that ({@code ?user=bob&user=alice} is alice, {@code ?user=bob&user=alice&user=bob}
     * bob; pgjdbc ignores {@code ?USER=alice}; {@code ?user=a,b} is the user "a,b"). Never a secret.
     */
    public String scopeIdentity() {
        StringBuilder urlUsers = new StringBuilder();
        for (String each : UrlCredentials.usersAsWritten(url)) {
            urlUsers.append(urlUsers.isEmpty() ? "" : ",").append(escaped(each));
        }
        return safeUrl() + "|" + table.value() + (username == null ? "" : "|user=" + escaped(username))
                + (urlUsers.isEmpty() ? "" : "|url-user=" + urlUsers);
    }

    /** A name in a scope key, with the key's separators (and the escape itself) percent-encoded. */
    private static String escaped(final String name) {
        return name.replace("%", "%25").replace(",", "%2C").replace("|", "%7C");
    }

    /** Every string that must never reach a message: the password, the URL as written and the credentials inside it. */
    public Redactor redactor() {
        return Redactor.of(url, password);
    }

    @Override
    public String toString() {
        return "JdbcStoreSettings[url=" + safeUrl() + ", username=" + (username == null ? null : SettingText.quotable(username)) + ", password=" + (password == null || password.isEmpty() ? "(none)" : "****")
                + ", table=" + table + ", createTable=" + createTable + ", timeoutMillis=" + timeoutMillis + "]";
    }
}
