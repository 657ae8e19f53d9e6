package org.snowkey.store.jdbc;

import java.sql.SQLException;

import org.snowkey.keygen.config.Redactor;
import org.snowkey.store.StoreUnavailableException;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/** The small HikariCP pools of the lease table and of the segment tables, built one way. */
public final class JdbcPools {

    private JdbcPools() {
    }

    /**
     * The driver is resolved when the pool is built (no connection yet); a missing driver fails here, cleaned. The
     * pool gets a data source that keeps the URL and the credentials to itself (see {@link RedactingDriverDataSource}).
     *
     * @param poolName named after the table, never the URL: HikariCP prints the pool name in every log line
     * @param maxSize  connections at most: the lease table needs two (one renews while another acquires or lists)
     * @throws StoreUnavailableException when no driver accepts the URL or the pool cannot be built
     */
    public static HikariDataSource open(final JdbcStoreSettings settings, final Redactor redactor, final String poolName, final int maxSize) {
        try {
            return new HikariDataSource(poolConfig(settings, new RedactingDriverDataSource(settings, redactor), poolName, maxSize));
        } catch (final SQLException | RuntimeException ex) {
            throw new StoreUnavailableException("SnowKey cannot open a connection pool for " + settings.safeUrl() + " (is its JDBC driver on the classpath?): "
                    + redactor.messages(ex), redactor.clean(ex));
        }
    }

    private static HikariConfig poolConfig(final JdbcStoreSettings settings, final RedactingDriverDataSource connections, final String poolName, final int maxSize) {
        HikariConfig config = new HikariConfig();
        config.setDataSource(connections);
        config.setPoolName(poolName);
        config.setMaximumPoolSize(maxSize);
        // No idle connection is kept warm, so an unreachable database produces no background retries or log noise.
        config.setMinimumIdle(0);
        config.setConnectionTimeout(settings.timeoutMillis());
        config.setValidationTimeout(Math.max(JdbcStoreSettings.MIN_TIMEOUT_MILLIS, settings.timeoutMillis() / 2));
        // Do not connect in the constructor: start-up retries belong to the caller's own deadlines.
        config.setInitializationFailTimeout(-1L);
        config.setAutoCommit(true);
        return config;
    }
}
