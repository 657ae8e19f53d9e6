package org.snowkey.store.jdbc;

import org.snowkey.store.StoreKind;
import org.snowkey.store.StoreLibraries;

/** What the JDBC store needs besides a driver: HikariCP, which SnowKey's artifact declares provided (see {@link StoreLibraries}). */
public final class JdbcLibraries {

    /** Checked before a JDBC lease or segment allocator is parsed, and by the operations tool. */
    public static final StoreLibraries REQUIRED = new StoreLibraries(JdbcLibraries.class, "org.snowkey:snowkey-lease-jdbc", "com.zaxxer.hikari.HikariDataSource",
            "com.zaxxer:HikariCP");

    /** The store as its lease provider, segment allocator provider and operations name it. */
    public static final StoreKind STORE = new StoreKind("jdbc", JdbcStoreProps.NAMES, REQUIRED);

    private JdbcLibraries() {
    }
}
