package org.snowkey.configcheck;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Sessions of the shared H2 database, kept open between uses: a connection the test driver hands out is an H2
 * session taken from the idle ones (or opened), and closing it hands the session back, rolled back and in auto-commit
 * mode again, as a fresh session would be. Every SnowKey pool of every deployment opens its own connections and closes
 * them with the pool; opening an H2 session (settings parsed, a new session's statement cache) cost more of a
 * deployment than most of its statements did.
 */
final class H2Sessions implements AutoCloseable {

    /** Idle sessions kept at most; more are closed. About two per pool of the deployments running at once. */
    private static final int MAX_IDLE = 64;

    private final String url;

    private final Deque<Connection> idle = new ArrayDeque<>();

    private boolean closed;

    H2Sessions(final String url) {
        this.url = url;
    }

    /** A session for one user: closing what this returns hands the session back. */
    Connection open() throws SQLException {
        Connection session;
        synchronized (this) {
            session = idle.pollFirst();
        }
        if (session == null) {
            session = DriverManager.getConnection(url);
        }
        return lent(session);
    }

    private Connection lent(final Connection session) {
        boolean[] returned = new boolean[1];
        return (Connection) Proxy.newProxyInstance(H2Sessions.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
            switch (method.getName()) {
                case "close":
                    synchronized (returned) {
                        if (!returned[0]) {
                            returned[0] = true;
                            giveBack(session);
                        }
                    }
                    return null;
                case "isClosed":
                    synchronized (returned) {
                        if (returned[0]) {
                            return true;
                        }
                    }
                    break;
                default:
                    synchronized (returned) {
                        if (returned[0]) {
                            throw new SQLException("connection closed", "08003");
                        }
                    }
            }
            try {
                return method.invoke(session, args);
            } catch (final InvocationTargetException ex) {
                throw ex.getCause();
            }
        });
    }

    /**
     * Resets the session as closing it would (its transaction rolled back; H2 waits for a statement still running on
     * it, such as one a pool's shutdown cut short) and keeps it for the next user; a session that cannot be reset is
     * closed.
     */
    private void giveBack(final Connection session) {
        try {
            if (!session.getAutoCommit()) {
                session.rollback();
                session.setAutoCommit(true);
            }
            if (session.isReadOnly()) {
                session.setReadOnly(false);
            }
            if (session.getTransactionIsolation() != Connection.TRANSACTION_READ_COMMITTED) {
                session.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            }
            synchronized (this) {
                if (!closed && idle.size() < MAX_IDLE) {
                    idle.addFirst(session);
                    return;
                }
            }
        } catch (final SQLException ex) {
            // Not reusable: closed below.
        }
        closeQuietly(session);
    }

    private static void closeQuietly(final Connection session) {
        try {
            session.close();
        } catch (final SQLException ex) {
            // Nothing to keep.
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        idle.forEach(H2Sessions::closeQuietly);
        idle.clear();
    }
}
