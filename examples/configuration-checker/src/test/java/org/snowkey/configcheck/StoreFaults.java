package org.snowkey.configcheck;

import java.sql.SQLException;
import java.util.Random;

import org.snowkey.lease.store.jdbc.faults.FaultInjectingDriver;

/**
 * The store faults of one simulated runtime: while armed, each store call (opening a connection, every statement
 * execution with DDL, commit, rollback, every metadata read) fails with a seeded probability, before it reaches the
 * database or after the database applied it (the reply lost). Probes (the layout column probe {@code SELECT ... WHERE
 * 1 = 0}) and metadata reads fail only when {@code probes} is on.
 */
final class StoreFaults implements FaultInjectingDriver.StoreCalls {

    private Random random;

    private int percent;

    private boolean probes;

    /** Starts failing about {@code percent} of the calls, drawn from {@code seed}. */
    synchronized void arm(final long seed, final int failPercent, final boolean includeProbes) {
        random = new Random(seed);
        percent = failPercent;
        probes = includeProbes;
    }

    synchronized void disarm() {
        random = null;
    }

    @Override
    public <T> T call(final String site, final FaultInjectingDriver.SqlCall<T> call) throws SQLException {
        boolean lostReply = beforeCall(site);
        T result = call.run();
        if (lostReply) {
            throw new SQLException("injected: " + site + " applied, then the reply was lost", "08006");
        }
        return result;
    }

    /**
     * @return true when the call must be applied and then fail
     * @throws SQLException when the call fails before it is applied
     */
    private synchronized boolean beforeCall(final String site) throws SQLException {
        if (random == null || !probes && isProbe(site)) {
            return false;
        }
        if (random.nextInt(100) >= percent) {
            return false;
        }
        // An opened connection whose reply was lost would only leak a session: opening fails before it happens.
        if (!"connect".equals(site) && random.nextBoolean()) {
            return true;
        }
        throw new SQLException("injected: " + site + " failed before it reached the database", "08001");
    }

    private static boolean isProbe(final String site) {
        return site.startsWith("metadata ") || site.contains("WHERE 1 = 0");
    }
}
