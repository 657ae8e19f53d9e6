package org.snowkey.lease.store.jdbc.faults;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;

import org.snowkey.lease.testing.faults.FaultSchedule;
import org.snowkey.lease.testing.faults.StoreFault;

/**
 * The {@link FaultSchedule} of one database, in JDBC's terms: every call through {@link FaultInjectingDriver} is
 * counted per call site (the JDBC operation and its SQL text, or the metadata method), and the armed occurrence of one
 * site fails once with an {@link SQLException} (state 08S01), an {@link SQLTimeoutException} (HYT00), or 08S01 after
 * the call ran.
 */
public final class FaultPlan extends FaultSchedule implements FaultInjectingDriver.StoreCalls {

    @Override
    public synchronized FaultPlan arm(final String site, final int occurrence, final StoreFault fault) {
        super.arm(site, occurrence, fault);
        return this;
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
}
