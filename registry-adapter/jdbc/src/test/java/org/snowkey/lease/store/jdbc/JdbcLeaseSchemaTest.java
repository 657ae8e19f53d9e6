package org.snowkey.lease.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.snowkey.store.jdbc.JdbcTableName;

/** The lease table's DDL is written for the default name and runs under the configured one. */
class JdbcLeaseSchemaTest {

    @Test
    void theDdlNamesTheConfiguredTable() {
        String ddl = JdbcLeaseSchema.ddl(new JdbcTableName("ops.my_leases"));
        assertTrue(ddl.startsWith("CREATE TABLE IF NOT EXISTS ops.my_leases ("), ddl);
        assertTrue(ddl.contains("PRIMARY KEY (pool, worker_id)"), ddl);
        assertTrue(!ddl.contains("--") && !ddl.endsWith(";"), ddl);
    }
}
