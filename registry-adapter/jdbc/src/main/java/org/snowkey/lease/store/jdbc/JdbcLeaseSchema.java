package org.snowkey.lease.store.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Collectors;
import org.snowkey.store.jdbc.JdbcTableName;

/**
 * The lease table's DDL and the check that the table exists. The DDL lives in {@code schema.sql} next to this
 * class so that the docs quote the very statement the code runs (docs/configuration.md, "Database table", and
 * registry-adapter/docs/jdbc-leases.md); it is written for the default table name, which is swapped for the
 * configured (validated) one.
 */
public final class JdbcLeaseSchema {

    /** Classpath location of the DDL. */
    public static final String RESOURCE = "/org/snowkey/lease/store/jdbc/schema.sql";

    /** The lease table when {@code jdbc-table} is not set; the name {@code schema.sql} is written for. */
    public static final String DEFAULT_TABLE = "snowkey_worker_lease";

    private static final String DDL_TEMPLATE = load();

    private JdbcLeaseSchema() {
    }

    /** The CREATE TABLE statement for a table, without comments or trailing semicolon. */
    public static String ddl(final JdbcTableName table) {
        return DDL_TEMPLATE.replace("TABLE IF NOT EXISTS " + DEFAULT_TABLE + " ", "TABLE IF NOT EXISTS " + table.value() + " ");
    }

    /** The statement that adds the layout column to a table of an older SnowKey; the same on H2, MySQL/MariaDB and PostgreSQL. */
    public static String addLayoutColumn(final JdbcTableName table) {
        return "ALTER TABLE " + table.value() + " ADD COLUMN " + LeaseRowReader.LAYOUT_COLUMN + " VARCHAR(128)";
    }

    /** The statement that adds the incarnation column to a table of an older SnowKey; the same on H2, MySQL/MariaDB and PostgreSQL. */
    public static String addIncarnationColumn(final JdbcTableName table) {
        return "ALTER TABLE " + table.value() + " ADD COLUMN " + LeaseRowReader.INCARNATION_COLUMN + " VARCHAR(64)";
    }

    static void execute(final Connection connection, final String ddl, final int timeoutSeconds) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(timeoutSeconds);
            statement.execute(ddl);
        }
    }

    private static String load() {
        try (InputStream in = JdbcLeaseSchema.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("SnowKey lease table DDL " + RESOURCE + " is missing from the classpath");
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            String ddl = text.lines().filter(line -> !line.trim().startsWith("--")).collect(Collectors.joining("\n")).trim();
            return ddl.endsWith(";") ? ddl.substring(0, ddl.length() - 1).trim() : ddl;
        } catch (final IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
