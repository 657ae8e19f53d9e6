package org.snowkey.lease.store.jdbc.faults;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which store call of one database fails, and how: every call through {@link FaultInjectingDriver} is counted per call
 * site (the JDBC operation and its SQL text, or the metadata method), and the armed occurrence of one site fails once
 * with the armed {@link StoreFault}. Unarmed, the plan only records the sites in the order they were first used, which
 * is how a sweep learns what to break.
 */
public final class FaultPlan implements FaultInjectingDriver.StoreCalls {

    private final Map<String, Integer> calls = new LinkedHashMap<>();

    private String armedSite;

    private int armedOccurrence;

    private StoreFault armedFault;

    private boolean fired;

    /** Fails the {@code occurrence}-th call (1-based) of {@code site} once, in the given way. */
    public synchronized FaultPlan arm(final String site, final int occurrence, final StoreFault fault) {
        armedSite = site;
        armedOccurrence = occurrence;
        armedFault = fault;
        fired = false;
        return this;
    }

    /** Whether the armed fault happened (a sweep whose fault never fired tested nothing). */
    public synchronized boolean fired() {
        return fired;
    }

    /** Every call site seen, first use first, with how often it was called. */
    public synchronized Map<String, Integer> sites() {
        return new LinkedHashMap<>(calls);
    }

    /** The call sites seen, first use first. */
    public synchronized List<String> siteNames() {
        return new ArrayList<>(calls.keySet());
    }

    /**
     * Counts a call of {@code site} and runs it, failing it when armed.
     *
     * @throws SQLException the call's own failure, or the injected one
     */
    @Override
    public <T> T call(final String site, final FaultInjectingDriver.SqlCall<T> call) throws SQLException {
        StoreFault fault = count(site);
        if (fault == null) {
            return call.run();
        }
        String message = "injected " + fault + " at " + site;
        switch (fault) {
            case ERROR:
                throw new SQLException(message, "08S01");
            case TIMEOUT:
                throw new SQLTimeoutException(message, "HYT00");
            default:
                call.run();
                throw new SQLException(message, "08S01");
        }
    }

    private synchronized StoreFault count(final String site) {
        int occurrence = calls.merge(site, 1, Integer::sum);
        if (!fired && armedFault != null && site.equals(armedSite) && occurrence == armedOccurrence) {
            fired = true;
            return armedFault;
        }
        return null;
    }
}
