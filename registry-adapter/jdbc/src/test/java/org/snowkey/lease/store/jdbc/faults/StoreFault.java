package org.snowkey.lease.store.jdbc.faults;

/** How an injected store call fails. */
public enum StoreFault {

    /** The call throws before it reaches the database (a refused or cut connection). */
    ERROR,

    /** The call throws a timeout before it reaches the database (a statement or network timeout). */
    TIMEOUT,

    /** The call is executed (and committed, in auto-commit mode) and then throws: the answer was lost on the wire. */
    APPLIED_THEN_ERROR
}
