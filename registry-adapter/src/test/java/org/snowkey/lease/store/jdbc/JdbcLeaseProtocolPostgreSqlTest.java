package org.snowkey.lease.store.jdbc;

/** The lease protocol contract on a POSTGRESQL table. */
class JdbcLeaseProtocolPostgreSqlTest extends JdbcLeaseProtocolContract {

    JdbcLeaseProtocolPostgreSqlTest() {
        super(TestDatabase.POSTGRESQL);
    }
}
