package org.snowkey.segment.store.jdbc;

import org.snowkey.lease.store.jdbc.TestDatabase;

class JdbcH2RangeAllocatorTest extends JdbcRangeAllocatorContract {

    JdbcH2RangeAllocatorTest() {
        super(TestDatabase.H2);
    }
}
