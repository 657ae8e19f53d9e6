package org.snowkey.configcheck;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * A JDBC driver for {@code jdbc:cfgcheck:<runtime>} that reaches the one shared H2 database and makes store calls fail
 * while a runtime's {@link StoreFaults} are armed. The runtime's name in the URL also gives each simulated runtime its
 * own SnowKey scope (the scope key holds the URL), as separate JVMs would have.
 *
 * <p>Calls that can fail: opening a connection, every statement execution (the layout probe and DDL included), commit,
 * and every read of {@link DatabaseMetaData}. A fault either fails the call before it reaches H2, or lets H2 apply it
 * and then fails (the reply lost).
 */
final class FaultyJdbcDriver implements Driver {

    static final String PREFIX = "jdbc:cfgcheck:";

    private static final FaultyJdbcDriver INSTANCE = new FaultyJdbcDriver();

    private static final Map<String, StoreFaults> FAULTS = new ConcurrentHashMap<>();

    private static final Set<String> EXECUTIONS = Set.of("execute", "executeQuery", "executeUpdate", "executeBatch", "executeLargeUpdate",
            "executeLargeBatch");

    private static volatile String target;

    private FaultyJdbcDriver() {
    }

    /** Registers the driver once, over the H2 database {@code h2Url}. */
    static synchronized void register(final String h2Url) throws SQLException {
        if (target == null) {
            DriverManager.registerDriver(INSTANCE);
        }
        target = h2Url;
    }

    static String url(final String runtime) {
        return PREFIX + runtime;
    }

    /** The faults of one runtime's store calls; created disarmed. */
    static StoreFaults faults(final String runtime) {
        return FAULTS.computeIfAbsent(runtime, key -> new StoreFaults());
    }

    static void forget(final String runtime) {
        FAULTS.remove(runtime);
    }

    @Override
    public Connection connect(final String url, final Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        StoreFaults faults = faults(url.substring(PREFIX.length()));
        faults.beforeCall("connect", null);
        Connection real = DriverManager.getConnection(target);
        return wrap(Connection.class, real, faults);
    }

    private static <T> T wrap(final Class<T> type, final T real, final StoreFaults faults) {
        return type.cast(Proxy.newProxyInstance(FaultyJdbcDriver.class.getClassLoader(), new Class<?>[] {type}, new Handler(real, faults)));
    }

    /** Wraps connections, statements and metadata: executions, commits and metadata reads pass through {@link StoreFaults}. */
    private static final class Handler implements InvocationHandler {

        private final Object real;

        private final StoreFaults faults;

        private final String sql;

        Handler(final Object real, final StoreFaults faults) {
            this(real, faults, null);
        }

        Handler(final Object real, final StoreFaults faults, final String sql) {
            this.real = real;
            this.faults = faults;
            this.sql = sql;
        }

        @Override
        public Object invoke(final Object proxy, final Method method, final Object[] args) throws Throwable {
            String name = method.getName();
            if ("unwrap".equals(name) || "isWrapperFor".equals(name)) {
                return call(method, args);
            }
            boolean counted;
            String statementSql = sql;
            if (real instanceof DatabaseMetaData) {
                counted = !"getConnection".equals(name);
                statementSql = StoreFaults.METADATA;
            } else if (real instanceof Statement) {
                counted = EXECUTIONS.contains(name);
                if (counted && args != null && args.length > 0 && args[0] instanceof String text) {
                    statementSql = text;
                }
            } else {
                counted = "commit".equals(name);
            }
            StoreFaults.Fault fault = counted ? faults.beforeCall(name, statementSql) : StoreFaults.Fault.NONE;
            Object result = call(method, args);
            if (fault == StoreFaults.Fault.AFTER) {
                throw new SQLException("injected: " + name + " applied, then the reply was lost (" + statementSql + ")", "08006");
            }
            return wrapResult(method, args, result);
        }

        private Object call(final Method method, final Object[] args) throws Throwable {
            try {
                return method.invoke(real, args);
            } catch (final InvocationTargetException ex) {
                throw ex.getCause();
            }
        }

        private Object wrapResult(final Method method, final Object[] args, final Object result) {
            if (result instanceof CallableStatement each && method.getReturnType() == CallableStatement.class) {
                return Proxy.newProxyInstance(FaultyJdbcDriver.class.getClassLoader(), new Class<?>[] {CallableStatement.class},
                        new Handler(each, faults, sqlOf(args)));
            }
            if (result instanceof PreparedStatement each && method.getReturnType() == PreparedStatement.class) {
                return Proxy.newProxyInstance(FaultyJdbcDriver.class.getClassLoader(), new Class<?>[] {PreparedStatement.class},
                        new Handler(each, faults, sqlOf(args)));
            }
            if (result instanceof Statement each && method.getReturnType() == Statement.class) {
                return Proxy.newProxyInstance(FaultyJdbcDriver.class.getClassLoader(), new Class<?>[] {Statement.class}, new Handler(each, faults));
            }
            if (result instanceof DatabaseMetaData each && method.getReturnType() == DatabaseMetaData.class) {
                return Proxy.newProxyInstance(FaultyJdbcDriver.class.getClassLoader(), new Class<?>[] {DatabaseMetaData.class}, new Handler(each, faults));
            }
            return result;
        }

        private static String sqlOf(final Object[] args) {
            return args != null && args.length > 0 && args[0] instanceof String text ? text : null;
        }
    }

    @Override
    public boolean acceptsURL(final String url) {
        return url != null && url.startsWith(PREFIX);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(final String url, final Properties info) {
        return new DriverPropertyInfo[0];
    }

    @Override
    public int getMajorVersion() {
        return 1;
    }

    @Override
    public int getMinorVersion() {
        return 0;
    }

    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }
}
