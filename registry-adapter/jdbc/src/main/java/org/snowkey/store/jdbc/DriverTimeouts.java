package org.snowkey.store.jdbc;

import java.util.Locale;
import java.util.Properties;

/**
 * Network timeouts for the drivers whose names SnowKey knows. A statement timeout alone does not end a read
 * from a database that stopped answering without closing the connection (a network partition, a frozen VM):
 * PostgreSQL's cancel travels over a new connection that hangs too, and MySQL/MariaDB enforce it on the server.
 * Such a read would block for the TCP retransmission timeout (many minutes) while holding the lease's lock, so
 * a lost lease could not be replaced until then (and a range fetch would wait as long). A socket timeout turns
 * the silence into an error in seconds, and the protocol retries or fails closed. Timeouts the URL sets itself are
 * left alone.
 */
public final class DriverTimeouts {

    /** The socket timeout is a backstop above the statement timeout, not a second statement timeout. */
    private static final long SOCKET_TIMEOUT_FACTOR = 2L;

    private DriverTimeouts() {
    }

    /** Driver properties for a URL, or none for drivers SnowKey does not know (H2 has no such settings). */
    static Properties forUrl(final String url, final long timeoutMillis) {
        Properties result = new Properties();
        String lower = url.toLowerCase(Locale.ROOT);
        long socketMillis = timeoutMillis * SOCKET_TIMEOUT_FACTOR;
        if (lower.startsWith("jdbc:postgresql:")) {
            // PgJDBC counts in seconds; 0 would mean "no timeout".
            putUnlessInUrl(result, lower, "socketTimeout", Long.toString(wholeSeconds(socketMillis)));
            putUnlessInUrl(result, lower, "connectTimeout", Long.toString(wholeSeconds(timeoutMillis)));
            putUnlessInUrl(result, lower, "loginTimeout", Long.toString(wholeSeconds(socketMillis)));
            // A timed-out statement waits for its cancel request (10 s by default) before it fails; into a
            // partition that request goes unanswered, so it must give up as quickly as a connection attempt.
            putUnlessInUrl(result, lower, "cancelSignalTimeout", Long.toString(wholeSeconds(timeoutMillis)));
        } else if (lower.startsWith("jdbc:mariadb:") || lower.startsWith("jdbc:mysql:")) {
            // MariaDB Connector/J and MySQL Connector/J count in milliseconds.
            putUnlessInUrl(result, lower, "socketTimeout", Long.toString(socketMillis));
            putUnlessInUrl(result, lower, "connectTimeout", Long.toString(timeoutMillis));
        }
        return result;
    }

    /**
     * A timeout in milliseconds as the whole seconds JDBC counts in (statement timeouts, PgJDBC's settings): rounded
     * up, so a timeout is never shortened, and at least 1, since 0 means "no timeout" there.
     */
    public static long wholeSeconds(final long millis) {
        return Math.max(1L, (millis + 999L) / 1000L);
    }

    private static void putUnlessInUrl(final Properties props, final String lowerCaseUrl, final String name, final String value) {
        if (!lowerCaseUrl.contains(name.toLowerCase(Locale.ROOT) + "=")) {
            props.setProperty(name, value);
        }
    }
}
