package org.snowkey.segment.store.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

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

    /**
     * Every INSERT into {@code logTable} fails before it reaches the database, and so does every rollback: a transaction
     * that already advanced the counter row can then neither finish nor be undone on its connection.
     */
    static DataSource failingLogRowsAndRollbacks(final DataSource real, final String logTable) {
        return withConnections(real, (method, args, call) -> {
            if ("prepareStatement".equals(method.getName()) && ((String) args[0]).startsWith("INSERT INTO " + logTable + " ")) {
                throw new SQLException("test: the log row's INSERT failed before it reached the database", "08001");
            }
            if ("rollback".equals(method.getName())) {
                throw new SQLException("test: the rollback failed before it reached the database", "08001");
            }
            return call.proceed();
        });
    }

    private static DataSource withConnections(final DataSource real, final Around connectionCalls) {
        return proxy(DataSource.class, real, (method, args, call) -> {
            Object result = call.proceed();
            return "getConnection".equals(method.getName()) ? proxy(Connection.class, (Connection) result, connectionCalls) : result;
        });
    }

    private static <T> T proxy(final Class<T> type, final T real, final Around around) {
        InvocationHandler handler = (proxy, method, args) -> around.apply(method, args, () -> {
            try {
                return method.invoke(real, args);
            } catch (final InvocationTargetException ex) {
                throw ex.getCause();
            }
        });
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
