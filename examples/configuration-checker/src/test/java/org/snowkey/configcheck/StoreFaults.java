package org.snowkey.configcheck;

import java.sql.SQLException;
import java.util.Random;

/**
 * The store faults of one simulated runtime: while armed, each counted store call fails with a seeded probability,
 * before it reaches the database or after the database applied it. Probes (the layout column probe
 * {@code SELECT ... WHERE 1 = 0}) and metadata reads fail only when {@code probes} is on.
 */
final class StoreFaults {

    static final String METADATA = "(metadata read)";

    enum Fault { NONE, AFTER }

    private Random random;

    private int percent;

    private boolean probes;

    private long injected;

    /** Starts failing about {@code percent} of the calls, drawn from {@code seed}. */
    synchronized void arm(final long seed, final int failPercent, final boolean includeProbes) {
        random = new Random(seed);
        percent = failPercent;
        probes = includeProbes;
    }

    synchronized void disarm() {
        random = null;
    }

    synchronized long injected() {
        return injected;
    }

    /**
     * @return {@link Fault#AFTER} when the call must be applied and then fail
     * @throws SQLException when the call fails before it is applied
     */
    synchronized Fault beforeCall(final String call, final String sql) throws SQLException {
        if (random == null || !probes && isProbe(sql)) {
            return Fault.NONE;
        }
        if (random.nextInt(100) >= percent) {
            return Fault.NONE;
        }
        injected++;
        if (sql != null && !"connect".equals(call) && random.nextBoolean()) {
            return Fault.AFTER;
        }
        throw new SQLException("injected: " + call + " failed before it reached the database (" + (sql == null ? call : sql) + ")", "08001");
    }

    static boolean isProbe(final String sql) {
        return sql != null && (METADATA.equals(sql) || sql.contains("WHERE 1 = 0"));
    }
}
