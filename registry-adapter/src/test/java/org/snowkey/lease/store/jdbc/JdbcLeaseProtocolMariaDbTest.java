package org.snowkey.lease.store.jdbc;

/** The lease protocol contract on a MARIADB table. */
class JdbcLeaseProtocolMariaDbTest extends JdbcLeaseProtocolContract {

    JdbcLeaseProtocolMariaDbTest() {
        super(TestDatabase.MARIADB);
    }
}
