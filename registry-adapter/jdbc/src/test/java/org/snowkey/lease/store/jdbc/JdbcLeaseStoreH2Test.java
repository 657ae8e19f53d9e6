package org.snowkey.lease.store.jdbc;

/** The JDBC lease store contract on H2. */
class JdbcLeaseStoreH2Test extends JdbcLeaseStoreContract {

    JdbcLeaseStoreH2Test() {
        super(TestDatabase.H2);
    }
}
