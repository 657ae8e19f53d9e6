package org.snowkey.lease.testing.faults;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which store call of one store fails, and how, whatever the store: the injector counts every call per call site and
 * asks {@link #count} whether this one is to fail; the armed occurrence of one site fails once with the armed
 * {@link StoreFault}. Unarmed, the schedule only records the sites in the order they were first used, which is how a
 * sweep ({@link StoreFaultSweep}) learns what to break.
 */
public class FaultSchedule {

    /** The armed occurrence of {@link #armFirstCallAt}: the armed site is a prefix, and its first call fails. */
    private static final int ANY_OCCURRENCE = -1;

    private final Map<String, Integer> calls = new LinkedHashMap<>();

    private String armedSite;

    private int armedOccurrence;

    private StoreFault armedFault;

    private boolean fired;

    /** Fails the {@code occurrence}-th call (1-based) of {@code site} once, in the given way. */
    public synchronized FaultSchedule arm(final String site, final int occurrence, final StoreFault fault) {
        armedSite = site;
        armedOccurrence = occurrence;
        armedFault = fault;
        fired = false;
        return this;
    }

    /**
     * Fails the first call whose site starts with {@code sitePrefix} once, in the given way: for a test that breaks one
     * known call (an operation and SnowKey's method) without naming the line it stands on.
     */
    public synchronized FaultSchedule armFirstCallAt(final String sitePrefix, final StoreFault fault) {
        return arm(sitePrefix, ANY_OCCURRENCE, fault);
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
     * Counts a call of {@code site}.
     *
     * @return the fault this call is to suffer, or null when it is to run as it is
     */
    public synchronized StoreFault count(final String site) {
        int occurrence = calls.merge(site, 1, Integer::sum);
        boolean armedCall = armedOccurrence == ANY_OCCURRENCE ? site.startsWith(armedSite) : site.equals(armedSite) && occurrence == armedOccurrence;
        if (!fired && armedFault != null && armedCall) {
            fired = true;
            return armedFault;
        }
        return null;
    }
}
