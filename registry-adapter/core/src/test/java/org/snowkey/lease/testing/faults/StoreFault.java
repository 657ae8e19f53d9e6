package org.snowkey.lease.testing.faults;

/** How an injected store call fails; each store's injector (a JDBC driver, a ZooKeeper client) gives these its own form. */
public enum StoreFault {

    /** The call fails before it reaches the store (a refused or cut connection): nothing was applied. */
    ERROR,

    /**
     * The call fails as a timeout does, before the store applies it: JDBC throws an {@code SQLTimeoutException} at once;
     * ZooKeeper holds the call past the client's request timeout and throws {@code REQUESTTIMEOUT}.
     */
    TIMEOUT,

    /** The call is applied (committed, in JDBC's auto-commit mode) and then fails: the answer was lost on the wire. */
    APPLIED_THEN_ERROR
}
