package org.snowkey.lease.testing;

import java.util.Locale;

import org.junit.jupiter.api.Assumptions;

/**
 * How much of the repeated and long-running lease tests a build runs (docs/testing.md). {@code mvn -B verify} runs a
 * faithful smaller case of each: a scenario that is the same protocol on every store runs on one store, and process
 * soaks run fewer kills, fuzzers fewer cases. {@code -Dsnowkey.stores=all} runs every store again,
 * {@code -Dsnowkey.soak=true} runs the soaks and fuzzers at full length; {@code -Psoak} sets both.
 */
public final class TestScope {

    /** The system property naming which stores the repeated scenarios run on: {@code all}, or unset for CI's choice. */
    public static final String STORES = "snowkey.stores";

    /** The system property that runs the process soaks and the fuzzers at full length. */
    public static final String SOAK = "snowkey.soak";

    private TestScope() {
    }

    /** Whether the scenarios repeated on every store run on every store ({@code -Dsnowkey.stores=all}). */
    public static boolean allStores() {
        return "all".equals(System.getProperty(STORES, "").trim().toLowerCase(Locale.ROOT));
    }

    /** Whether the long soaks and the fuzzers run at full length ({@code -Dsnowkey.soak=true}). */
    public static boolean soak() {
        return Boolean.parseBoolean(System.getProperty(SOAK, "false").trim());
    }

    /**
     * How many random cases a fuzzer runs: its full count with {@code -Dsnowkey.soak=true}, a quarter of it in
     * {@code mvn -B verify}. Fuzzers draw from fixed seeds, so CI's cases are the first quarter of the soak's.
     */
    public static int fuzzCases(final int fullCount) {
        return soak() ? fullCount : fullCount / 4;
    }

    /**
     * Skips a repeat of a scenario on a store other than the one CI runs it on, naming where it runs and how to run
     * this one too. Unlike a missing server this skips under {@code CI=true} as well: it is the build's choice.
     */
    public static void assumeRepeatWanted(final String store, final String scenario, final String ranInCiOn) {
        Assumptions.assumeTrue(allStores(), () -> scenario + " on " + store + " is a repeat: CI runs it on " + ranInCiOn + "; -D" + STORES
                + "=all (or -Psoak) runs it here too (docs/testing.md)");
    }
}
