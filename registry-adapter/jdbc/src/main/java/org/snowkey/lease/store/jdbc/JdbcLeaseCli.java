package org.snowkey.lease.store.jdbc;

import java.io.PrintStream;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.config.UrlCredentials;
import org.snowkey.lease.LeaseSettings;
import org.snowkey.lease.admin.LeaseAdmin;
import org.snowkey.lease.store.CorruptLeaseRecordException;
import org.snowkey.lease.store.LeaseStoreUnavailableException;

/**
 * Operations entry for JDBC leases:
 *
 * <pre>
 * SNOWKEY_JDBC_PASSWORD=... java -cp snowkey-registry-adapter.jar:&lt;driver&gt;.jar:... org.snowkey.lease.store.jdbc.JdbcLeaseCli \
 *     --url jdbc:postgresql://db:5432/app [--username app] [--table snowkey_worker_lease] [--pool default] list
 * ... release &lt;workerId&gt; --yes-i-am-sure
 * </pre>
 *
 * The password comes from the environment variable {@value #PASSWORD_ENV} (or the one named by
 * {@code --password-env}), never from the command line, where every user of the host could read it. The tool never
 * creates the table. Exit status: 0 done, 1 failed, 2 usage error or missing confirmation.
 */
public final class JdbcLeaseCli {

    public static final String CONFIRM = LeaseAdmin.CONFIRM;

    public static final String PASSWORD_ENV = "SNOWKEY_JDBC_PASSWORD";

    private static final String USAGE = "usage: JdbcLeaseCli --url jdbc:... [--username user] [--password-env VARIABLE (default " + PASSWORD_ENV + ")] "
            + "[--table table] [--pool pool] (list | release <workerId> " + CONFIRM + ")";

    /** An operator command waits at most this long for the database. */
    private static final long TIMEOUT_MILLIS = 5_000L;

    private JdbcLeaseCli() {
    }

    public static void main(final String[] args) {
        System.exit(run(args, System.getenv(), System.out, System.err));
    }

    /** Runs one command; returns the exit status. */
    public static int run(final String[] args, final Map<String, String> environment, final PrintStream out, final PrintStream err) {
        LeaseAdmin.Arguments parsed;
        try {
            parsed = LeaseAdmin.Arguments.parse(args, Set.of(CONFIRM));
        } catch (final IllegalArgumentException ex) {
            err.println(ex.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (parsed.words().isEmpty() || !Set.of("list", "release").contains(parsed.words().get(0))) {
            err.println(USAGE);
            return 2;
        }
        if (parsed.options().containsKey("--password")) {
            err.println("--password is not accepted (the command line is visible to every user of the host); put the password into " + PASSWORD_ENV
                    + " or the variable named by --password-env");
            return 2;
        }
        if (!UrlCredentials.secretsIn(parsed.options().get("--url")).isEmpty()) {
            // The same rule for a password inside the URL: the command line is no place for it.
            err.println("--url carries a password (the command line is visible to every user of the host); give the URL without it and put the password "
                    + "into " + PASSWORD_ENV + " or the variable named by --password-env");
            return 2;
        }
        Properties props = new Properties();
        putIfPresent(props, JdbcLeaseProps.URL, parsed.options().get("--url"));
        putIfPresent(props, JdbcLeaseProps.USERNAME, parsed.options().get("--username"));
        putIfPresent(props, JdbcLeaseProps.PASSWORD, environment.get(parsed.options().getOrDefault("--password-env", PASSWORD_ENV)));
        putIfPresent(props, JdbcLeaseProps.TABLE, parsed.options().get("--table"));
        putIfPresent(props, PropertyNames.LEASE_POOL, parsed.options().get("--pool"));
        String pool;
        JdbcStoreSettings settings;
        try {
            PropertyReader reader = new PropertyReader(props);
            LeaseSettings lease = LeaseSettings.parse(reader);
            pool = lease.pool();
            JdbcStoreSettings parsedSettings = JdbcLeaseProps.parse(reader, lease);
            settings = new JdbcStoreSettings(parsedSettings.url(), parsedSettings.username(), parsedSettings.password(), parsedSettings.table(), false,
                    TIMEOUT_MILLIS);
        } catch (final InvalidSettingException ex) {
            err.println(ex.getMessage());
            err.println(USAGE);
            return 2;
        }
        try (JdbcLeaseStore store = new JdbcLeaseStore(settings)) {
            return new LeaseAdmin(store, out).execute(parsed, pool, USAGE, err);
        } catch (final LeaseStoreUnavailableException | CorruptLeaseRecordException ex) {
            err.println(ex.getMessage());
            return 1;
        }
    }

    private static void putIfPresent(final Properties props, final String name, final String value) {
        if (value != null) {
            props.setProperty(name, value);
        }
    }
}
