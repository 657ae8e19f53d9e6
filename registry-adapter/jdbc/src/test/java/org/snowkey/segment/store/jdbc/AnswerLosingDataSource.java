package org.snowkey.segment.store.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

/**
 * A data source whose next commit is applied by the database and then reported as failed, as when the connection
 * drops between the server's commit and its answer. Everything else goes straight to the real data source.
 */
final class AnswerLosingDataSource {

    private AnswerLosingDataSource() {
    }

    static DataSource losingNextCommit(final DataSource real) {
        AtomicBoolean loseNext = new AtomicBoolean(true);
        return proxy(DataSource.class, real, (method, result) -> "getConnection".equals(method.getName()) ? connection((Connection) result, loseNext) : result);
    }

    private static Connection connection(final Connection real, final AtomicBoolean loseNext) {
        return proxy(Connection.class, real, (method, result) -> {
            // The commit ran (its result is in); only the answer goes missing.
            if ("commit".equals(method.getName()) && loseNext.getAndSet(false)) {
                throw new SQLException("connection reset after the commit was sent (test: the commit is applied, its answer lost)", "08006");
            }
            return result;
        });
    }

    private static <T> T proxy(final Class<T> type, final T real, final AfterCall after) {
        InvocationHandler handler = (proxy, method, args) -> {
            Object result;
            try {
                result = method.invoke(real, args);
            } catch (final InvocationTargetException ex) {
                throw ex.getCause();
            }
            return after.apply(method, result);
        };
        return type.cast(Proxy.newProxyInstance(AnswerLosingDataSource.class.getClassLoader(), new Class<?>[] {type}, handler));
    }

    @FunctionalInterface
    private interface AfterCall {

        Object apply(Method method, Object result) throws SQLException;
    }
}
