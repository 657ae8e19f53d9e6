package org.snowkey.segment.store.jdbc;

import org.snowkey.lease.store.jdbc.TestDatabase;

class JdbcMariaDbRangeAllocatorTest extends JdbcRangeAllocatorContract {

    JdbcMariaDbRangeAllocatorTest() {
        super(TestDatabase.MARIADB);
    }
}
