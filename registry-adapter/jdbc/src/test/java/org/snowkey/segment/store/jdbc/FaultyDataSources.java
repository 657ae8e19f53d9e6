package org.snowkey.segment.store.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

import org.snowkey.lease.store.jdbc.TestDatabase;

/** Data sources that fail chosen calls of their connections; everything else goes straight to the real data source. */
final class FaultyDataSources {

    private FaultyDataSources() {
    }

    /** The next commit is applied by the database and then reported as failed, as when the connection drops before the answer. */
    static DataSource losingNextCommit(final DataSource real) {
        AtomicBoolean loseNext = new AtomicBoolean(true);
        return withConnections(real, (method, args, call) -> {
            Object result = call.proceed();
            // The commit ran (its result is in); only the answer goes missing.
            if ("commit".equals(method.getName()) && loseNext.getAndSet(false)) {
                throw new SQLException("connection reset after the commit was sent (test: the commit is applied, its answer lost)", "08006");
            }
            return result;
        });
    }

    /** {@link #failingLogRowsAndRollbacks(DataSource, String, AtomicBoolean)}, always armed. */
    static DataSource failingLogRowsAndRollbacks(final DataSource real, final String logTable) {
        return failingLogRowsAndRollbacks(real, logTable, new AtomicBoolean(true));
    }

    /**
     * While {@code armed}, every INSERT into {@code logTable} fails before it reaches the database, and so does every
     * rollback: a transaction that already advanced the counter row can then neither finish nor be undone on its
     * connection. The SQLStates (a duplicate key, HY000) are ones HikariCP does not take for a broken connection.
     */
    static DataSource failingLogRowsAndRollbacks(final DataSource real, final String logTable, final AtomicBoolean armed) {
        return withConnections(real, (method, args, call) -> {
            if (armed.get() && "prepareStatement".equals(method.getName()) && ((String) args[0]).startsWith("INSERT INTO " + logTable + " ")) {
                throw new SQLException("test: the log row's INSERT failed (a duplicate key)", "23505");
            }
            if (armed.get() && "rollback".equals(method.getName())) {
                throw new SQLException("test: the rollback failed (not a connection error)", "HY000");
            }
            return call.proceed();
        });
    }

    /** A plain data source of {@code database}, a new connection per call, for a pool to take its connections from. */
    static DataSource connecting(final TestDatabase database) {
        return (DataSource) Proxy.newProxyInstance(FaultyDataSources.class.getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
            switch (method.getName()) {
                case "getConnection":
                    return database.connect();
                case "getLoginTimeout":
                    return 0;
                case "getParentLogger":
                    throw new SQLFeatureNotSupportedException();
                case "isWrapperFor":
                    return false;
                case "getLogWriter":
                case "setLogWriter":
                case "setLoginTimeout":
                    return null;
                default:
                    throw new UnsupportedOperationException(method.getName());
            }
        });
    }

    /** {@code method} on {@code target}, throwing what it threw. */
    static Object invoke(final Object target, final Method method, final Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (final InvocationTargetException ex) {
            throw ex.getCause();
        }
    }

    private static DataSource withConnections(final DataSource real, final Around connectionCalls) {
        return proxy(DataSource.class, real, (method, args, call) -> {
            Object result = call.proceed();
            return "getConnection".equals(method.getName()) ? proxy(Connection.class, (Connection) result, connectionCalls) : result;
        });
    }

    private static <T> T proxy(final Class<T> type, final T real, final Around around) {
        InvocationHandler handler = (proxy, method, args) -> around.apply(method, args, () -> invoke(real, method, args));
        return type.cast(Proxy.newProxyInstance(FaultyDataSources.class.getClassLoader(), new Class<?>[] {type}, handler));
    }

    /** One call of a proxied object, around the real call. */
    @FunctionalInterface
    private interface Around {

        Object apply(Method method, Object[] args, RealCall call) throws Throwable;
    }

    @FunctionalInterface
    private interface RealCall {

        Object proceed() throws Throwable;
    }
}
