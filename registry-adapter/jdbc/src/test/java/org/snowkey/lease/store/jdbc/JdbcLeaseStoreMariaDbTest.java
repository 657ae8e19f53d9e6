package org.snowkey.lease.store.jdbc;

/** The JDBC lease store contract on MARIADB. */
class JdbcLeaseStoreMariaDbTest extends JdbcLeaseStoreContract {

    JdbcLeaseStoreMariaDbTest() {
        super(TestDatabase.MARIADB);
    }
}
