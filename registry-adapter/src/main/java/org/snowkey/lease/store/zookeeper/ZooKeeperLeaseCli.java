package org.snowkey.lease.store.zookeeper;

import java.io.PrintStream;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.lease.LeaseSettings;
import org.snowkey.lease.admin.LeaseAdmin;
import org.snowkey.lease.store.CorruptLeaseRecordException;
import org.snowkey.lease.store.LeaseStoreUnavailableException;

/**
 * Operations entry for ZooKeeper leases:
 *
 * <pre>
 * java -cp snowkey-registry-adapter.jar:... org.snowkey.lease.store.zookeeper.ZooKeeperLeaseCli \
 *     --servers 10.0.0.1:2181 [--namespace governance_ds] [--pool default] [--digest user:password] list
 * ... release &lt;workerId&gt; --yes-i-am-sure
 * </pre>
 *
 * Exit status: 0 done, 1 failed, 2 usage error or missing confirmation.
 */
public final class ZooKeeperLeaseCli {

    public static final String CONFIRM = LeaseAdmin.CONFIRM;

    private static final String USAGE = "usage: ZooKeeperLeaseCli --servers host:port[,host:port...] [--namespace ns] [--pool pool] [--digest user:password] "
            + "(list | release <workerId> " + CONFIRM + ")";

    private ZooKeeperLeaseCli() {
    }

    public static void main(final String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one command; returns the exit status. */
    public static int run(final String[] args, final PrintStream out, final PrintStream err) {
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
        Properties props = new Properties();
        putIfPresent(props, ZooKeeperLeaseProps.SERVER_LISTS, parsed.options().get("--servers"));
        putIfPresent(props, ZooKeeperLeaseProps.NAMESPACE, parsed.options().get("--namespace"));
        putIfPresent(props, ZooKeeperLeaseProps.DIGEST, parsed.options().get("--digest"));
        putIfPresent(props, PropertyNames.LEASE_POOL, parsed.options().get("--pool"));
        ZooKeeperStoreSettings settings;
        String pool;
        try {
            PropertyReader reader = new PropertyReader(props);
            pool = LeaseSettings.parse(reader).pool();
            settings = ZooKeeperLeaseProps.parse(reader, Optional.empty(), true, 5_000);
        } catch (final InvalidSettingException ex) {
            err.println(ex.getMessage());
            err.println(USAGE);
            return 2;
        }
        try (ZooKeeperLeaseStore store = new ZooKeeperLeaseStore(settings)) {
            return new LeaseAdmin(store, out).execute(parsed, pool, USAGE, err);
        } catch (final LeaseStoreUnavailableException | CorruptLeaseRecordException ex) {
            err.println(ex.getMessage());
            return 1;
        } catch (final IllegalStateException ex) {
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
