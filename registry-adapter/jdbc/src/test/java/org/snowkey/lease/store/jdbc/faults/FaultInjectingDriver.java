package org.snowkey.lease.store.jdbc.faults;

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
 * A JDBC driver for tests that puts a {@link FaultPlan} between SnowKey and a real database: the URL
 * {@code jdbc:snowkey-faults:h2:mem:x} opens {@code jdbc:h2:mem:x} and routes opening a connection ({@code connect}),
 * every statement execution, commit, rollback and metadata read through the plan registered for that URL
 * ({@link #plan}). Everything else (connection settings, result sets, {@code isValid}) passes straight through.
 * A test with its own fault model and its own way to reach the database registers both for a URL with {@link #route}
 * (the configuration checker: seeded fault rates over one shared database).
 */
public final class FaultInjectingDriver implements Driver {

    /** What a URL of this driver starts with; the rest, after "jdbc:", is the real database's URL. */
    public static final String PREFIX = "jdbc:snowkey-faults:";

    private static final Map<String, Route> ROUTES = new ConcurrentHashMap<>();

    /** Statement methods that reach the database; their call site is the method and the SQL. */
    private static final Set<String> EXECUTIONS = Set.of("execute", "executeQuery", "executeUpdate", "executeLargeUpdate", "executeBatch", "executeLargeBatch");

    /** Metadata methods that read nothing from the database. */
    private static final Set<String> NOT_READS = Set.of("getConnection", "unwrap", "isWrapperFor");

    static {
        try {
            DriverManager.registerDriver(new FaultInjectingDriver());
        } catch (final SQLException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** A fresh plan for a URL of this driver (replacing an earlier one); loading this class registers the driver. */
    public static FaultPlan plan(final String url) {
        if (!url.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a " + PREFIX + " URL: " + url);
        }
        FaultPlan plan = new FaultPlan();
        route(url, plan, info -> DriverManager.getConnection(realUrl(url), info));
        return plan;
    }

    /**
     * Routes a URL of this driver: its connections come from {@code connections} and each call site passes through
     * {@code calls}, which may fail it before or after it runs. Replaces an earlier route or plan of that URL.
     */
    public static void route(final String url, final StoreCalls calls, final Connections connections) {
        if (!url.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a " + PREFIX + " URL: " + url);
        }
        ROUTES.put(url, new Route(calls, connections));
    }

    /** Forgets a URL's route or plan. */
    public static void forget(final String url) {
        ROUTES.remove(url);
    }

    /** What every call site of a URL passes through: a {@link FaultPlan}, or a test's own fault model. */
    public interface StoreCalls {

        /**
         * Runs one call of {@code site} (connect, commit, rollback, "execute... SQL", "metadata getX"), or fails it.
         *
         * @throws SQLException the call's own failure, or the injected one
         */
        <T> T call(String site, SqlCall<T> call) throws SQLException;
    }

    /** One JDBC call. */
    @FunctionalInterface
    public interface SqlCall<T> {

        T run() throws SQLException;
    }

    /** Where a URL's connections come from, given the properties the caller connected with (user, password). */
    @FunctionalInterface
    public interface Connections {

        Connection open(Properties info) throws SQLException;
    }

    private record Route(StoreCalls calls, Connections connections) {
    }

    private static String realUrl(final String url) {
        return "jdbc:" + url.substring(PREFIX.length());
    }

    /** The URL of this driver in front of a real one ({@code jdbc:h2:mem:x}). */
    public static String wrap(final String realUrl) {
        if (!realUrl.startsWith("jdbc:")) {
            throw new IllegalArgumentException("not a JDBC URL: " + realUrl);
        }
        return PREFIX + realUrl.substring("jdbc:".length());
    }

    @Override
    public Connection connect(final String url, final Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        Route route = ROUTES.computeIfAbsent(url, any -> new Route(new FaultPlan(), each -> DriverManager.getConnection(realUrl(url), each)));
        Connection real = route.calls().call("connect", () -> route.connections().open(info));
        return proxy(Connection.class, new ConnectionCalls(real, route.calls()));
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

    @SuppressWarnings("unchecked")
    private static <T> T proxy(final Class<T> type, final InvocationHandler handler) {
        return (T) Proxy.newProxyInstance(FaultInjectingDriver.class.getClassLoader(), new Class<?>[] {type}, handler);
    }

    private static Object invoke(final Object target, final Method method, final Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (final InvocationTargetException ex) {
            throw ex.getCause();
        }
    }

    private static Object through(final StoreCalls plan, final String site, final Object target, final Method method, final Object[] args) throws Throwable {
        try {
            return plan.call(site, () -> {
                try {
                    return invoke(target, method, args);
                } catch (final SQLException | RuntimeException | Error ex) {
                    throw ex;
                } catch (final Throwable ex) {
                    throw new SQLException(ex);
                }
            });
        } catch (final SQLException ex) {
            throw ex;
        }
    }

    /** A connection: statements and metadata are wrapped, commit and rollback are call sites. */
    private static final class ConnectionCalls implements InvocationHandler {

        private final Connection real;

        private final StoreCalls plan;

        ConnectionCalls(final Connection real, final StoreCalls plan) {
            this.real = real;
            this.plan = plan;
        }

        @Override
        public Object invoke(final Object proxy, final Method method, final Object[] args) throws Throwable {
            switch (method.getName()) {
                case "prepareStatement":
                    return proxy(PreparedStatement.class, new StatementCalls(FaultInjectingDriver.invoke(real, method, args), plan, (String) args[0]));
                case "prepareCall":
                    return proxy(CallableStatement.class, new StatementCalls(FaultInjectingDriver.invoke(real, method, args), plan, (String) args[0]));
                case "createStatement":
                    return proxy(Statement.class, new StatementCalls(FaultInjectingDriver.invoke(real, method, args), plan, null));
                case "getMetaData":
                    return proxy(DatabaseMetaData.class, new MetadataCalls((DatabaseMetaData) FaultInjectingDriver.invoke(real, method, args), plan));
                case "commit":
                case "rollback":
                    return through(plan, method.getName(), real, method, args);
                case "unwrap":
                    return ((Class<?>) args[0]).isInstance(real) ? real : FaultInjectingDriver.invoke(real, method, args);
                default:
                    return FaultInjectingDriver.invoke(real, method, args);
            }
        }
    }

    /** A statement: each execution is a call site named by the method and the SQL (prepared or passed). */
    private static final class StatementCalls implements InvocationHandler {

        private final Object real;

        private final StoreCalls plan;

        private final String preparedSql;

        StatementCalls(final Object real, final StoreCalls plan, final String preparedSql) {
            this.real = real;
            this.plan = plan;
            this.preparedSql = preparedSql;
        }

        @Override
        public Object invoke(final Object proxy, final Method method, final Object[] args) throws Throwable {
            if (EXECUTIONS.contains(method.getName())) {
                String sql = args != null && args.length > 0 && args[0] instanceof String text ? text : preparedSql;
                return through(plan, method.getName() + " " + sql, real, method, args);
            }
            return FaultInjectingDriver.invoke(real, method, args);
        }
    }

    /** Metadata: every read (the catalogue, and the database's description such as {@code getURL}) is a call site. */
    private static final class MetadataCalls implements InvocationHandler {

        private final DatabaseMetaData real;

        private final StoreCalls plan;

        MetadataCalls(final DatabaseMetaData real, final StoreCalls plan) {
            this.real = real;
            this.plan = plan;
        }

        @Override
        public Object invoke(final Object proxy, final Method method, final Object[] args) throws Throwable {
            if (!NOT_READS.contains(method.getName())) {
                return through(plan, "metadata " + method.getName(), real, method, args);
            }
            return FaultInjectingDriver.invoke(real, method, args);
        }
    }
}
