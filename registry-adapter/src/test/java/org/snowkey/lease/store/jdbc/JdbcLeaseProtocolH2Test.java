package org.snowkey.lease.store.jdbc;

/** The lease protocol contract on a H2 table (H2's TCP server in this JVM, behind the proxy). */
class JdbcLeaseProtocolH2Test extends JdbcLeaseProtocolContract {

    JdbcLeaseProtocolH2Test() {
        super(TestDatabase.H2);
    }
}
