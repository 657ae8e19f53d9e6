package org.snowkey.lease.testing.faults;

/** How an injected store call fails; each store's injector (a JDBC driver, a ZooKeeper client) gives these its own form. */
public enum StoreFault {

    /** The call fails before it reaches the store (a refused or cut connection): nothing was applied. */
    ERROR,

    /** The call waits past the client's timeout and then fails (a statement, request or network timeout). */
    TIMEOUT,

    /** The call is applied (committed, in JDBC's auto-commit mode) and then fails: the answer was lost on the wire. */
    APPLIED_THEN_ERROR
}
