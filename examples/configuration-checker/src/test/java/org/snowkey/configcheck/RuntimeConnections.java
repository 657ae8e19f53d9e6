package org.snowkey.configcheck;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.snowkey.lease.store.jdbc.faults.FaultInjectingDriver;

/**
 * The JDBC URLs of the simulated runtimes: {@code jdbc:snowkey-faults:cfgcheck:<runtime>}, each routed through
 * registry-adapter/jdbc's test {@link FaultInjectingDriver} to the one shared H2 database, with the runtime's own
 * {@link StoreFaults}. The runtime's name in the URL also gives each simulated runtime its own SnowKey scope (the scope
 * key holds the URL), as separate JVMs would have.
 */
final class RuntimeConnections {

    private static final Map<String, StoreFaults> FAULTS = new ConcurrentHashMap<>();

    private static volatile H2Sessions database;

    private RuntimeConnections() {
    }

    /** Every runtime's connections come from {@code sessions} from now on. */
    static void connectTo(final H2Sessions sessions) {
        database = sessions;
    }

    /** The runtime's URL; its faults are created disarmed. */
    static String url(final String runtime) {
        faults(runtime);
        return urlOf(runtime);
    }

    /** The faults of one runtime's store calls; created disarmed, with the runtime's route. */
    static StoreFaults faults(final String runtime) {
        return FAULTS.computeIfAbsent(runtime, key -> {
            StoreFaults result = new StoreFaults();
            FaultInjectingDriver.route(urlOf(key), result, info -> database.open());
            return result;
        });
    }

    static void forget(final String runtime) {
        FAULTS.remove(runtime);
        FaultInjectingDriver.forget(urlOf(runtime));
    }

    private static String urlOf(final String runtime) {
        return FaultInjectingDriver.PREFIX + "cfgcheck:" + runtime;
    }
}
