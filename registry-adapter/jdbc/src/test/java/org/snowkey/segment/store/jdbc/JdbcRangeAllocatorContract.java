package org.snowkey.segment.store.jdbc;

import org.junit.jupiter.api.BeforeEach;
import org.snowkey.keygen.segment.RangeAllocator;
import org.snowkey.keygen.segment.StartValues;
import org.snowkey.lease.testing.StartValuesFixtures;
import org.snowkey.lease.store.jdbc.TestDatabase;
import org.snowkey.segment.store.AbstractRangeAllocatorContractTest;
import org.snowkey.segment.store.RangeLog;
import org.snowkey.store.jdbc.JdbcTableName;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/** The allocator contract on a database; a server that is not reachable skips its tests with the reason (fails under CI=true). */
abstract class JdbcRangeAllocatorContract extends AbstractRangeAllocatorContractTest {

    private final TestDatabase database;

    private JdbcSegmentSettings settings;

    JdbcRangeAllocatorContract(final TestDatabase database) {
        this.database = database;
    }

    @BeforeEach
    void freshTables() {
        database.assumeAvailable();
        JdbcTableName table = TestDatabase.uniqueTable("seg");
        settings = new JdbcSegmentSettings(table, true, 5_000L, database.url());
        // Registered first, so dropped after every pool has closed.
        closeLater(() -> {
            database.dropQuietly(table);
            database.dropQuietly(settings.logTable());
        });
    }

    /** A pool of its own per allocator, as a separate process would have. */
    HikariDataSource pool() {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database.url());
        config.setUsername(database.username());
        config.setPassword(database.password());
        config.setMaximumPoolSize(3);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(10_000L);
        return closeLater(new HikariDataSource(config));
    }

    JdbcSegmentSettings settings() {
        return settings;
    }

    @Override
    protected RangeAllocator open(final String owner, final StartValues starts) {
        return new JdbcRangeAllocator(pool(), settings, owner, starts);
    }

    @Override
    protected RangeAllocator openLosingNextAnswer(final String owner) {
        return new JdbcRangeAllocator(AnswerLosingDataSource.losingNextCommit(pool()), settings, owner, StartValuesFixtures.everyKeyAtOne());
    }

    @Override
    protected void deleteCounterByHand(final String key) {
        database.execute("DELETE FROM " + settings.table() + " WHERE seq_key = '" + key.replace("'", "''") + "'");
    }

    @Override
    protected RangeLog log() {
        return new JdbcRangeLog(pool(), settings);
    }
}
