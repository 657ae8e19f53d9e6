package org.snowkey.lease.store.zookeeper;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.config.SettingText;
import org.snowkey.lease.LeaseSettings;
import org.snowkey.lease.admin.LeaseAdmin;
import org.snowkey.lease.store.CorruptLeaseRecordException;
import org.snowkey.lease.store.LeaseStoreUnavailableException;

/**
 * Operations entry for ZooKeeper leases:
 *
 * <pre>
 * SNOWKEY_ZOOKEEPER_DIGEST=user:password java -cp snowkey-registry-adapter.jar:... org.snowkey.lease.store.zookeeper.ZooKeeperLeaseCli \
 *     --servers 10.0.0.1:2181 [--namespace governance_ds] [--pool default] list
 * ... release &lt;workerId&gt; --yes-i-am-sure
 * ... [--lease-duration-milliseconds 60000] repair-acl --yes-i-am-sure
 * </pre>
 *
 * The digest comes from the environment variable {@value #DIGEST_ENV} (or the one named by {@code --digest-env}) or
 * from a file ({@code --digest-file}), never from the command line, where every user of the host could read it.
 * Exit status: 0 done, 1 failed, 2 usage error or missing confirmation.
 */
public final class ZooKeeperLeaseCli {

    public static final String CONFIRM = LeaseAdmin.CONFIRM;

    public static final String DIGEST_ENV = "SNOWKEY_ZOOKEEPER_DIGEST";

    private static final String USAGE = "usage: ZooKeeperLeaseCli --servers host:port[,host:port...] [--namespace ns] [--pool pool] "
            + "[--digest-env VARIABLE (default " + DIGEST_ENV + ") | --digest-file FILE] [--lease-duration-milliseconds ms] "
            + "(list | release <workerId> " + CONFIRM + " | repair-acl " + CONFIRM + ")";

    private static final long TIMEOUT_MILLIS = 5_000L;

    private ZooKeeperLeaseCli() {
    }

    public static void main(final String[] args) {
        System.exit(run(args, System.getenv(), System.out, System.err));
    }

    /** Runs one command with the digest from this process's environment; returns the exit status. */
    public static int run(final String[] args, final PrintStream out, final PrintStream err) {
        return run(args, System.getenv(), out, err);
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
        if (parsed.words().isEmpty() || !Set.of("list", "release", "repair-acl").contains(parsed.words().get(0))) {
            err.println(USAGE);
            return 2;
        }
        if (parsed.options().containsKey("--digest")) {
            err.println("--digest is not accepted (the command line is visible to every user of the host); put user:password into " + DIGEST_ENV
                    + " (or the variable named by --digest-env), or into a file readable only by you and pass --digest-file FILE");
            return 2;
        }
        Optional<String> digest;
        try {
            digest = digest(parsed.options(), environment);
        } catch (final IOException | IllegalArgumentException ex) {
            err.println(ex.getMessage());
            return 2;
        }
        Properties props = new Properties();
        putIfPresent(props, ZooKeeperLeaseProps.SERVER_LISTS, parsed.options().get("--servers"));
        putIfPresent(props, ZooKeeperLeaseProps.NAMESPACE, parsed.options().get("--namespace"));
        putIfPresent(props, ZooKeeperLeaseProps.DIGEST, digest.orElse(null));
        putIfPresent(props, PropertyNames.LEASE_POOL, parsed.options().get("--pool"));
        putIfPresent(props, PropertyNames.LEASE_DURATION_MILLISECONDS, parsed.options().get("--lease-duration-milliseconds"));
        ZooKeeperStoreSettings settings;
        LeaseSettings lease;
        try {
            PropertyReader reader = new PropertyReader(props);
            lease = LeaseSettings.parse(reader);
            settings = ZooKeeperLeaseProps.parse(reader, Optional.empty(), true, TIMEOUT_MILLIS);
        } catch (final InvalidSettingException ex) {
            err.println(ex.getMessage());
            err.println(USAGE);
            return 2;
        }
        try (ZooKeeperLeaseStore store = new ZooKeeperLeaseStore(settings)) {
            if ("repair-acl".equals(parsed.words().get(0))) {
                return repairAcl(store, parsed, lease, out, err);
            }
            return new LeaseAdmin(store, out).execute(parsed, lease.pool(), USAGE, err);
        } catch (final LeaseStoreUnavailableException | CorruptLeaseRecordException ex) {
            err.println(ex.getMessage());
            return 1;
        } catch (final IllegalStateException ex) {
            err.println(ex.getMessage());
            return 1;
        }
    }

    private static int repairAcl(final ZooKeeperLeaseStore store, final LeaseAdmin.Arguments parsed, final LeaseSettings lease, final PrintStream out,
                                 final PrintStream err) {
        if (parsed.words().size() != 1) {
            err.println(USAGE);
            return 2;
        }
        if (!parsed.flags().contains(CONFIRM)) {
            err.println("refusing to repair the ACL of pool '" + lease.pool() + "' without " + CONFIRM + ". The repair locks every node of the pool to the "
                    + "digest user and, if any was open, reserves each record until a lease duration (" + lease.durationMillis() + " ms, "
                    + "--lease-duration-milliseconds: give the deployment's) from now; holders still running take another number.");
            return 2;
        }
        store.repairAcls(lease.pool(), System.currentTimeMillis(), lease.durationMillis(), out);
        return 0;
    }

    /** The digest from a file or an environment variable; empty when neither is given or set. */
    private static Optional<String> digest(final Map<String, String> options, final Map<String, String> environment) throws IOException {
        String file = options.get("--digest-file");
        if (file != null) {
            if (options.containsKey("--digest-env")) {
                throw new IllegalArgumentException("give --digest-file or --digest-env, not both");
            }
            String content = Files.readString(Path.of(file), StandardCharsets.UTF_8).strip();
            if (content.isEmpty()) {
                throw new IllegalArgumentException("the digest file " + SettingText.quotable(file) + " is empty; expected user:password");
            }
            return Optional.of(content);
        }
        return Optional.ofNullable(environment.get(options.getOrDefault("--digest-env", DIGEST_ENV))).filter(each -> !each.isBlank());
    }

    private static void putIfPresent(final Properties props, final String name, final String value) {
        if (value != null) {
            props.setProperty(name, value);
        }
    }
}
