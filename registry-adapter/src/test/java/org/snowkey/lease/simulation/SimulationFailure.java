package org.snowkey.lease.simulation;

/** An invariant of the lease protocol broke in a simulated schedule. */
final class SimulationFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    SimulationFailure(final String message) {
        super(message);
    }

    SimulationFailure(final String message, final Throwable cause) {
        super(message, cause);
    }
}
