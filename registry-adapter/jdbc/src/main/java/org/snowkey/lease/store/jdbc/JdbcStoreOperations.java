package org.snowkey.lease.store.jdbc;

import java.util.Map;
import java.util.Optional;

import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.config.UrlCredentials;
import org.snowkey.lease.admin.AbstractStoreOperations;
import org.snowkey.lease.admin.StoreOperations;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.segment.store.OpenRangeLog;
import org.snowkey.segment.store.jdbc.JdbcRangeLog;
import org.snowkey.segment.store.jdbc.JdbcSegmentSettings;
import org.snowkey.store.jdbc.JdbcLibraries;
import org.snowkey.store.jdbc.JdbcPools;
import org.snowkey.store.jdbc.JdbcStoreProps;
import org.snowkey.store.jdbc.JdbcStoreSettings;

import com.zaxxer.hikari.HikariDataSource;

/** {@code LeaseCli --registry jdbc}: the lease table, never created by the tool (registered in {@code META-INF/services}). */
public final class JdbcStoreOperations extends AbstractStoreOperations {

    /** The variable the password is read from unless {@code --password-env} or {@code --password-file} says otherwise. */
    static final String PASSWORD_ENV = "SNOWKEY_JDBC_PASSWORD";

    public JdbcStoreOperations() {
        super(JdbcLibraries.STORE,
                StoreOperations.optionsInOrder("--url", JdbcStoreProps.URL, "--username", JdbcStoreProps.USERNAME, "--table", JdbcStoreProps.TABLE),
                new Secret("password", JdbcStoreProps.PASSWORD, PASSWORD_ENV, "the password"));
    }

    @Override
    public Optional<String> secretIn(final Map<String, String> options) {
        // The same rule for a password inside the URL: the command line is no place for it.
        return UrlCredentials.secretsIn(options.get("--url")).isEmpty() ? Optional.empty()
                : Optional.of("--url carries a password (the command line is visible to every user of the host); give the URL without it and put the "
                        + "password into " + PASSWORD_ENV + ", the variable named by --password-env, or a file named by --password-file");
    }

    /** The segment counter table ({@code --table}, default {@code snowkey_segment}) and its log, read through a pool of one connection. */
    @Override
    public Optional<OpenRangeLog> openRangeLog(final PropertyReader reader, final long timeoutMillis) {
        JdbcStoreSettings parsed = JdbcStoreProps.parse(reader, "--registry jdbc", JdbcSegmentSettings.DEFAULT_TABLE, timeoutMillis);
        JdbcStoreSettings store = forOperator(parsed, timeoutMillis);
        JdbcSegmentSettings segment = JdbcSegmentSettings.of(store);
        HikariDataSource pool = JdbcPools.open(store, store.redactor(), "snowkey-cli-" + store.table().value(), 1);
        JdbcRangeLog log = new JdbcRangeLog(pool, segment);
        return Optional.of(OpenRangeLog.of(log, pool::close));
    }

    @Override
    public LeaseStore open(final PropertyReader reader, final LeaseTerms lease, final long timeoutMillis) {
        JdbcStoreSettings parsed = JdbcLeaseProvider.parseLease(reader, lease);
        return new JdbcLeaseStore(forOperator(parsed, timeoutMillis));
    }

    /** The parsed settings as the tool uses them: nothing is created, and every wait is bounded by the tool's timeout. */
    private static JdbcStoreSettings forOperator(final JdbcStoreSettings parsed, final long timeoutMillis) {
        return new JdbcStoreSettings(parsed.url(), parsed.username(), parsed.password(), parsed.table(), false, timeoutMillis);
    }
}
