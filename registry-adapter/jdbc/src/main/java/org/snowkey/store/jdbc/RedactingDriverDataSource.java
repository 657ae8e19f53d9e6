package org.snowkey.store.jdbc;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

import javax.sql.DataSource;

import org.snowkey.keygen.config.Redactor;

/**
 * Opens driver connections for the pool while keeping the URL and the credentials to itself. HikariCP logs its
 * configuration (the JDBC URL among it) at debug level and logs the driver's exceptions when a connection fails;
 * both could carry a password embedded in the URL or quoted by the driver. Handing the pool this data source
 * instead of the URL means nothing the pool logs or throws has ever seen a secret: every driver error leaves here
 * as a cleaned copy with the driver's class name, SQL state, vendor code and stack trace.
 */
final class RedactingDriverDataSource implements DataSource {

    private final Driver driver;

    private final String url;

    private final Properties connectionProps;

    private final Redactor redactor;

    private volatile int loginTimeoutSeconds;

    /**
     * @throws SQLException (cleaned) when no driver on the class path accepts the URL
     */
    RedactingDriverDataSource(final JdbcStoreSettings settings, final Redactor redactor) throws SQLException {
        this.redactor = redactor;
        this.url = settings.url();
        try {
            this.driver = DriverManager.getDriver(url);
        } catch (final SQLException ex) {
            throw cleaned(ex);
        }
        Properties props = DriverTimeouts.forUrl(url, settings.timeoutMillis());
        if (settings.username() != null) {
            props.setProperty("user", settings.username());
        }
        if (settings.password() != null) {
            props.setProperty("password", settings.password());
        }
        this.connectionProps = props;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection connection;
        try {
            connection = driver.connect(url, connectionProps);
        } catch (final SQLException ex) {
            throw cleaned(ex);
        } catch (final RuntimeException ex) {
            throw new RedactedSQLException(redactor.headline(ex), null, 0, ex, redactor);
        }
        if (connection == null) {
            throw new SQLException("the driver " + driver.getClass().getName() + " does not accept the URL " + redactor.clean(url), "08001");
        }
        return connection;
    }

    @Override
    public Connection getConnection(final String username, final String password) throws SQLException {
        // The pool is never given credentials; it has no business asking with others.
        throw new SQLFeatureNotSupportedException("SnowKey's pools connect with the configured credentials only");
    }

    private SQLException cleaned(final SQLException ex) {
        return new RedactedSQLException(redactor.headline(ex), ex.getSQLState(), ex.getErrorCode(), ex, redactor);
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(final PrintWriter out) {
        // Driver-level logging is not used.
    }

    @Override
    public void setLoginTimeout(final int seconds) {
        loginTimeoutSeconds = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeoutSeconds;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(final Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw new SQLException("not a wrapper of " + type.getName());
    }

    @Override
    public boolean isWrapperFor(final Class<?> type) {
        return type.isInstance(this);
    }

    @Override
    public String toString() {
        return "RedactingDriverDataSource[" + redactor.clean(url) + "]";
    }

    /** A driver error with a cleaned message and cleaned causes; same SQL state and vendor code, original stack. */
    static final class RedactedSQLException extends SQLException implements Redactor.Redacted {

        private static final long serialVersionUID = 1L;

        RedactedSQLException(final String message, final String sqlState, final int vendorCode, final Throwable original, final Redactor redactor) {
            super(message, sqlState, vendorCode);
            setStackTrace(original.getStackTrace());
            Throwable cause = original.getCause() == null ? null : redactor.clean(original.getCause());
            if (cause != null) {
                initCause(cause);
            }
        }

        @Override
        public String toString() {
            return getMessage();
        }
    }
}
