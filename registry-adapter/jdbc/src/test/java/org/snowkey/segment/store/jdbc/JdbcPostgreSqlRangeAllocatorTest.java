package org.snowkey.segment.store.jdbc;

import org.snowkey.lease.store.jdbc.TestDatabase;

class JdbcPostgreSqlRangeAllocatorTest extends JdbcRangeAllocatorContract {

    JdbcPostgreSqlRangeAllocatorTest() {
        super(TestDatabase.POSTGRESQL);
    }
}
