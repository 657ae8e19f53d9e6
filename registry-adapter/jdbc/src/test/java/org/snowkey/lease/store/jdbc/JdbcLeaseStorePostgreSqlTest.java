package org.snowkey.lease.store.jdbc;

/** The JDBC lease store contract on POSTGRESQL. */
class JdbcLeaseStorePostgreSqlTest extends JdbcLeaseStoreContract {

    JdbcLeaseStorePostgreSqlTest() {
        super(TestDatabase.POSTGRESQL);
    }
}
