package org.snowkey.lease.admin;

import java.io.PrintStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.segment.store.OpenRangeLog;
import org.snowkey.store.StoreLibraries;

/**
 * What {@link LeaseCli} needs from one store: which options name which of its props, its secret, how to open it for
 * an operator, and any command of its own. Each store registers its operations through {@code META-INF/services}
 * under this interface's name, as it registers its lease provider; the operations tool depends on the lease layer,
 * never the reverse.
 */
public interface StoreOperations {

    /** The {@code --registry} value, the store's {@code lease-registry} value. */
    String registry();

    /** The third-party libraries the store needs, checked before the store is opened. */
    StoreLibraries libraries();

    /** Command-line options of this store to the props they set, e.g. {@code --url} to {@code jdbc-url}, in usage order. */
    Map<String, String> options();

    /** Options in the order given: {@code optionThenProp} holds pairs of an option and the prop it sets. */
    static Map<String, String> optionsInOrder(final String... optionThenProp) {
        Map<String, String> result = new LinkedHashMap<>();
        for (int i = 0; i + 1 < optionThenProp.length; i += 2) {
            result.put(optionThenProp[i], optionThenProp[i + 1]);
        }
        return Collections.unmodifiableMap(result);
    }

    /** The store's secret; it is taken from the environment or a file only. */
    Secret secret();

    /** A message when an option's value carries a secret (a password inside a URL); empty when none does. */
    default Optional<String> secretIn(final Map<String, String> options) {
        return Optional.empty();
    }

    /** Opens the store for one operator command: every wait bounded by {@code timeoutMillis}, nothing created. */
    LeaseStore open(PropertyReader reader, LeaseTerms lease, long timeoutMillis);

    /**
     * Opens the store's segment range log for {@code ranges} and {@code reconcile}: every wait bounded by
     * {@code timeoutMillis}, nothing created. The store's options mean the segment store's (for JDBC, {@code --table}
     * names the segment counter table).
     *
     * @return empty when this store keeps no segment ranges
     * @throws org.snowkey.keygen.config.InvalidSettingException naming the option's prop and value
     */
    default Optional<OpenRangeLog> openRangeLog(final PropertyReader reader, final long timeoutMillis) {
        return Optional.empty();
    }

    /** Commands besides {@code list} and {@code release}, by name. */
    default Map<String, Command> commands() {
        return Map.of();
    }

    /**
     * A store's secret: {@code --<option>-env NAME} and {@code --<option>-file PATH} give it, {@code --<option>} is
     * refused, and without either it is read from {@code defaultEnvironmentVariable}.
     *
     * @param option the option word, e.g. {@code password}
     * @param prop the prop it sets
     * @param defaultEnvironmentVariable the variable read when neither option is given
     * @param form what the secret looks like, for messages (e.g. {@code user:password})
     */
    record Secret(String option, String prop, String defaultEnvironmentVariable, String form) {
    }

    /** A command of one store. */
    interface Command {

        /** The command as the usage line shows it, e.g. {@code repair-acl --yes-i-am-sure}. */
        String usage();

        /** Runs it; returns the exit status (0 done, 1 failed, 2 usage or missing confirmation). */
        int run(LeaseStore store, LeaseTerms lease, LeaseAdmin.Arguments parsed, PrintStream out, PrintStream err);
    }
}
