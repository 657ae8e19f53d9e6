package org.snowkey.lease.admin;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.config.SettingText;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.segment.store.OpenRangeLog;

/**
 * The operations tool for every lease store, the store chosen by {@code --registry} among the stores on the class
 * path (found as the key generator finds them, through {@link WorkerLeaseProvider}):
 *
 * <pre>
 * SNOWKEY_JDBC_PASSWORD=... java -cp 'snowkey-lease-core.jar:snowkey-lease-jdbc.jar:...' org.snowkey.lease.admin.LeaseCli \
 *     --registry jdbc --url jdbc:postgresql://db:5432/app [--username app] [--table snowkey_worker_lease] [--pool default] list
 * SNOWKEY_ZOOKEEPER_DIGEST=user:password java -cp ... org.snowkey.lease.admin.LeaseCli \
 *     --registry zookeeper --servers 10.0.0.1:2181 [--namespace governance_ds] [--pool default] list
 * ... release &lt;workerId&gt; --yes-i-am-sure [--clear-layout]   (the layout is kept; cleared only from a record that never issued)
 * ... [--lease-duration-milliseconds 60000] repair-acl --yes-i-am-sure      (zookeeper)
 * ... ranges [--key sharding_db.t_order] [--limit 20]     (segment mode: a key's recent ranges, or every key)
 * ... reconcile [--key sharding_db.t_order] [--limit 10000]   (segment mode: gaps are fine, an overlap exits 3)
 * </pre>
 *
 * A secret (the JDBC password, the ZooKeeper digest) comes from an environment variable or a file, never from the
 * command line, where every user of the host can read it. The tool never creates a table or a node it would not
 * change anyway. Exit status: 0 done, 1 failed, 2 usage error or missing confirmation, 3 {@code reconcile} found
 * numbers handed out twice.
 */
public final class LeaseCli {

    public static final String CONFIRM = LeaseAdmin.CONFIRM;

    /** An operator command waits at most this long for the store. */
    private static final long TIMEOUT_MILLIS = 5_000L;

    /** Options every store takes, to the lease props they set. */
    private static final Map<String, String> LEASE_OPTIONS = Map.of("--pool", PropertyNames.LEASE_POOL,
            "--lease-duration-milliseconds", PropertyNames.LEASE_DURATION_MILLISECONDS);

    /** The segment commands ({@link RangeAdmin}): they read the range log, not the lease table. */
    private static final Set<String> RANGE_COMMANDS = Set.of("ranges", "reconcile");

    /** Options of the segment commands only. */
    private static final Set<String> RANGE_OPTIONS = Set.of("--key", "--limit");

    /** The secret options of every store: refused whichever store is chosen, so a secret typed there is never read. */
    private static final Set<String> SECRET_OPTIONS = Set.of("--password", "--digest");

    private LeaseCli() {
    }

    public static void main(final String[] args) {
        System.exit(run(args, System.getenv(), System.out, System.err));
    }

    /** Runs one command; returns the exit status. */
    public static int run(final String[] args, final Map<String, String> environment, final PrintStream out, final PrintStream err) {
        Map<String, StoreOperations> stores = stores();
        LeaseAdmin.Arguments parsed;
        try {
            parsed = LeaseAdmin.Arguments.parse(args, Set.of(CONFIRM, LeaseAdmin.CLEAR_LAYOUT));
        } catch (final IllegalArgumentException ex) {
            return usageError(ex.getMessage(), stores, err);
        }
        for (String each : SECRET_OPTIONS) {
            if (parsed.options().containsKey(each)) {
                String variable = stores.values().stream().map(store -> store.secret()).filter(secret -> each.equals("--" + secret.option()))
                        .map(secret -> secret.defaultEnvironmentVariable() + " or ").findFirst().orElse("");
                err.println(each + " is not accepted: the command line is visible to every user of the host. Put the secret into the environment variable "
                        + variable + "the one named by " + each + "-env, or into a file readable only by you and pass " + each + "-file PATH");
                return 2;
            }
        }
        String registry = parsed.options().get("--registry");
        StoreOperations operations = registry == null ? null : stores.get(registry);
        if (operations == null) {
            return usageError(registry == null ? "--registry is required" : "--registry " + SettingText.quotable(registry) + " is not a lease store on the class path "
                    + "(" + String.join(", ", stores.keySet()) + ")", stores, err);
        }
        String command = parsed.words().isEmpty() ? "" : parsed.words().get(0);
        if (!Set.of("list", "release").contains(command) && !RANGE_COMMANDS.contains(command) && !operations.commands().containsKey(command)) {
            return usageError(command.isEmpty() ? "no command" : "unknown command " + SettingText.quotable(command) + " for --registry " + registry, stores, err);
        }
        Optional<String> secretInOption = operations.secretIn(parsed.options());
        if (secretInOption.isPresent()) {
            err.println(secretInOption.get());
            return 2;
        }
        Properties props = new Properties();
        try {
            boolean rangeCommand = RANGE_COMMANDS.contains(command);
            for (Map.Entry<String, String> each : parsed.options().entrySet()) {
                String prop = rangeCommand ? operations.options().get(each.getKey()) : LEASE_OPTIONS.getOrDefault(each.getKey(), operations.options().get(each.getKey()));
                if (prop != null) {
                    props.setProperty(prop, each.getValue());
                } else if (rangeCommand && LEASE_OPTIONS.containsKey(each.getKey())) {
                    throw new IllegalArgumentException("option " + each.getKey() + " does not apply to " + command + ": segment ranges belong to no lease pool");
                } else if (!"--registry".equals(each.getKey()) && !isSecretSource(each.getKey(), operations.secret()) && !(rangeCommand && RANGE_OPTIONS.contains(each.getKey()))) {
                    throw new IllegalArgumentException("option " + each.getKey() + " is not one of --registry " + registry + (rangeCommand ? " " + command : ""));
                }
            }
            secret(parsed.options(), environment, operations.secret()).ifPresent(value -> props.setProperty(operations.secret().prop(), value));
        } catch (final IllegalArgumentException | IOException ex) {
            return usageError(ex.getMessage(), stores, err);
        }
        if (RANGE_COMMANDS.contains(command)) {
            return runRangeCommand(command, parsed, operations, props, stores, out, err);
        }
        LeaseTerms lease;
        LeaseStore store;
        try {
            requireLibraries(operations);
            PropertyReader reader = new PropertyReader(props);
            lease = LeaseTerms.parse(reader);
            store = operations.open(reader, lease, TIMEOUT_MILLIS);
        } catch (final InvalidSettingException | IllegalStateException ex) {
            return openingFailed(ex, stores, err);
        }
        try (store) {
            StoreOperations.Command own = operations.commands().get(command);
            return own != null ? own.run(store, lease, parsed, out, err) : new LeaseAdmin(store, out).execute(parsed, lease.pool(), usage(stores), err);
        } catch (final IllegalStateException ex) {
            // Store unreachable, corrupt record, no permission: the message says which.
            err.println(ex.getMessage());
            return 1;
        }
    }

    private static int runRangeCommand(final String command, final LeaseAdmin.Arguments parsed, final StoreOperations operations, final Properties props,
                                       final Map<String, StoreOperations> stores, final PrintStream out, final PrintStream err) {
        if (parsed.words().size() != 1 || !parsed.flags().isEmpty()) {
            return usageError(command + " takes no words or flags besides --key and --limit", stores, err);
        }
        String key = parsed.options().get("--key");
        int limit;
        try {
            limit = limit(parsed.options().get("--limit"), "ranges".equals(command) ? RangeAdmin.DEFAULT_LIST_LIMIT : RangeAdmin.DEFAULT_RECONCILE_LIMIT);
        } catch (final IllegalArgumentException ex) {
            return usageError(ex.getMessage(), stores, err);
        }
        OpenRangeLog log;
        try {
            requireLibraries(operations);
            Optional<OpenRangeLog> opened = operations.openRangeLog(new PropertyReader(props), TIMEOUT_MILLIS);
            if (opened.isEmpty()) {
                err.println("--registry " + operations.registry() + " keeps no segment ranges");
                return 2;
            }
            log = opened.get();
        } catch (final InvalidSettingException | IllegalStateException ex) {
            return openingFailed(ex, stores, err);
        }
        try (log) {
            RangeAdmin admin = new RangeAdmin(log, out, err);
            return "ranges".equals(command) ? admin.ranges(key, limit) : admin.reconcile(key, limit);
        } catch (final IllegalArgumentException ex) {
            // A key the store cannot hold (blank, too long): the message names it.
            return usageError(ex.getMessage(), stores, err);
        } catch (final IllegalStateException ex) {
            // Store unreachable, table or node missing, corrupt entry: the message says which.
            err.println(ex.getMessage());
            return 1;
        }
    }

    /**
     * The exit status of a store or range log that could not be opened: a wrong option value is a usage error (2), a
     * missing library or an unreachable store a failure (1); the message says which.
     */
    private static int openingFailed(final RuntimeException ex, final Map<String, StoreOperations> stores, final PrintStream err) {
        if (ex instanceof InvalidSettingException) {
            return usageError(ex.getMessage(), stores, err);
        }
        err.println(ex.getMessage());
        return 1;
    }

    private static int limit(final String text, final int defaultLimit) {
        if (text == null) {
            return defaultLimit;
        }
        try {
            int value = Integer.parseInt(text.trim());
            if (value >= 1) {
                return value;
            }
        } catch (final NumberFormatException ex) {
            // Reported below with the value.
        }
        throw new IllegalArgumentException("--limit " + SettingText.quotable(text) + " is not allowed: a whole number of ranges from 1 to " + Integer.MAX_VALUE);
    }

    /** The usage line, also for a store's own command that was misused. */
    public static String usage(final Map<String, StoreOperations> stores) {
        List<String> lines = new ArrayList<>();
        lines.add("usage: LeaseCli --registry " + String.join("|", stores.keySet()) + " [--pool pool] [--lease-duration-milliseconds ms] <store options> "
                + "(list | release <workerId> " + CONFIRM + " [" + LeaseAdmin.CLEAR_LAYOUT + "] | <store command>)");
        lines.add("       LeaseCli --registry " + String.join("|", stores.keySet()) + " <store options> (ranges [--key key] [--limit n] | reconcile [--key key] "
                + "[--limit n])   segment mode; for jdbc --table names the segment table (default snowkey_segment); exit 3 when reconcile finds an overlap");
        stores.forEach((name, operations) -> {
            StoreOperations.Secret secret = operations.secret();
            StringBuilder line = new StringBuilder("  --registry ").append(name).append(':');
            operations.options().forEach((option, prop) -> line.append(' ').append(option).append(" <").append(prop).append('>'));
            line.append(" [--").append(secret.option()).append("-env VARIABLE (default ").append(secret.defaultEnvironmentVariable()).append(") | --")
                    .append(secret.option()).append("-file PATH]");
            operations.commands().values().forEach(each -> line.append(" | ").append(each.usage()));
            lines.add(line.toString());
        });
        return String.join(System.lineSeparator(), lines);
    }

    private static int usageError(final String message, final Map<String, StoreOperations> stores, final PrintStream err) {
        err.println(message);
        err.println(usage(stores));
        return 2;
    }

    /** The lease stores on the class path by registry name, in name order. */
    private static Map<String, StoreOperations> stores() {
        Map<String, StoreOperations> result = new TreeMap<>();
        for (StoreOperations each : ServiceLoader.load(StoreOperations.class, LeaseCli.class.getClassLoader())) {
            result.put(each.registry(), each);
        }
        return result;
    }

    /** The message names the store as its lease does: {@code SnowKey lease-registry: zookeeper needs ...}. */
    private static void requireLibraries(final StoreOperations operations) {
        operations.libraries().require(PropertyNames.LEASE_REGISTRY + ": " + operations.registry());
    }

    private static boolean isSecretSource(final String option, final StoreOperations.Secret secret) {
        return option.equals("--" + secret.option() + "-env") || option.equals("--" + secret.option() + "-file");
    }

    /** The secret from a file or an environment variable; empty when neither is given or set. */
    private static Optional<String> secret(final Map<String, String> options, final Map<String, String> environment, final StoreOperations.Secret secret)
            throws IOException {
        String fileOption = "--" + secret.option() + "-file";
        String envOption = "--" + secret.option() + "-env";
        String file = options.get(fileOption);
        if (file != null) {
            if (options.containsKey(envOption)) {
                throw new IllegalArgumentException("give " + fileOption + " or " + envOption + ", not both");
            }
            String content = Files.readString(Path.of(file), StandardCharsets.UTF_8).strip();
            if (content.isEmpty()) {
                throw new IllegalArgumentException("the " + secret.option() + " file " + SettingText.quotable(file) + " is empty; expected " + secret.form());
            }
            return Optional.of(content);
        }
        return Optional.ofNullable(environment.get(options.getOrDefault(envOption, secret.defaultEnvironmentVariable()))).filter(each -> !each.isBlank());
    }
}
