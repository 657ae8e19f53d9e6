package org.snowkey.lease.store.jdbc;

import java.util.Locale;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.lease.PreparedLease;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.lease.LeasedWorkerLease;
import org.snowkey.lease.StoreLeaseProvider;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.store.jdbc.JdbcLibraries;
import org.snowkey.store.jdbc.JdbcStoreProps;
import org.snowkey.store.jdbc.JdbcStoreSettings;
import org.snowkey.store.jdbc.JdbcUrls;

/**
 * {@code lease-registry: jdbc}: worker ids leased through a table of a database the application already runs,
 * for Standalone-mode deployments without ZooKeeper. Same protocol as every registry ({@link LeasedWorkerLease});
 * {@link #parse} only validates, {@link PreparedLease#open()} builds the (not yet connected) pool, and the first
 * grant request connects and acquires.
 */
public final class JdbcLeaseProvider extends StoreLeaseProvider<JdbcStoreSettings, JdbcStoreSettings> {

    public static final String REGISTRY = "jdbc";

    private static final Logger LOG = LoggerFactory.getLogger(JdbcLeaseProvider.class);

    public JdbcLeaseProvider() {
        super(JdbcLibraries.STORE);
    }

    @Override
    protected JdbcStoreSettings parseStore(final PropertyReader reader, final LeaseTerms terms) {
        return parseLease(reader, terms);
    }

    /**
     * The {@code jdbc-*} props of a lease: the lease table by default, and one statement or connection attempt may take
     * a quarter of the lease at most, so that a hung database still leaves time for retries before the reservation runs
     * out (5 s at most, HikariCP's 250 ms at least).
     *
     * @throws org.snowkey.keygen.config.InvalidSettingException naming the prop and the value
     */
    static JdbcStoreSettings parseLease(final PropertyReader reader, final LeaseTerms terms) {
        return JdbcStoreProps.parse(reader, PropertyNames.LEASE_REGISTRY + " = " + REGISTRY, JdbcLeaseSchema.DEFAULT_TABLE,
                terms.storeCallTimeoutMillis(JdbcStoreSettings.DEFAULT_TIMEOUT_MILLIS));
    }

    /** The mode adds nothing to the JDBC props. */
    @Override
    protected JdbcStoreSettings complete(final JdbcStoreSettings parsed, final Optional<ClusterRegistry> cluster, final LeaseTerms terms) {
        return parsed;
    }

    /**
     * The URL without credentials, the table, and the users ({@link JdbcStoreSettings#scopeIdentity}): an unqualified
     * table name resolves in the user's default schema, so two users may reach two different lease tables, two pools,
     * through one URL and one name. Keeping them one scope would let one pool's worker id serve the other's key
     * generator. The same table reached as two users costs one extra worker id, never uniqueness.
     */
    @Override
    protected String scopeOf(final JdbcStoreSettings store) {
        return store.scopeIdentity();
    }

    @Override
    protected LeaseStore openStore(final JdbcStoreSettings store) {
        processLocalWarning(store.url()).ifPresent(warning -> LOG.warn(warning));
        return new JdbcLeaseStore(store);
    }

    /**
     * A database that lives inside this process (H2, HSQLDB or Derby in memory, SQLite in memory) leases nothing
     * across processes: every process sees its own empty table and takes worker id 0. Fine for a test, a duplicate
     * factory in production, so it is said once at start-up.
     */
    static Optional<String> processLocalWarning(final String url) {
        String lower = url.toLowerCase(Locale.ROOT);
        boolean local = lower.startsWith("jdbc:h2:mem:") || lower.startsWith("jdbc:hsqldb:mem:") || lower.startsWith("jdbc:derby:memory:")
                || lower.startsWith("jdbc:sqlite::memory:") || lower.startsWith("jdbc:sqlite:file::memory:");
        return local ? Optional.of("SnowKey leases worker ids in " + JdbcUrls.withoutCredentials(url) + ", an in-memory database of this process: it leases "
                + "nothing across processes, and every other process using the same URL gets the same worker ids. Use a shared database server for "
                + PropertyNames.LEASE_REGISTRY + " = jdbc") : Optional.empty();
    }
}
