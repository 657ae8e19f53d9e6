package org.snowkey.segment.store.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.snowkey.store.jdbc.JdbcTableName;


/**
 * The DDL of the segment tables. It lives in {@code schema.sql} next to this class so the docs can quote the very
 * statements the code runs; they are written for the default names, which are swapped for the configured ones.
 */
public final class JdbcSegmentSchema {

    public static final String RESOURCE = "/org/snowkey/segment/store/jdbc/schema.sql";

    private static final List<String> STATEMENTS = load();

    private JdbcSegmentSchema() {
    }

    /** CREATE TABLE of the counter table. */
    public static String counterDdl(final JdbcTableName table) {
        return rename(STATEMENTS.get(0), JdbcSegmentSettings.DEFAULT_TABLE, table);
    }

    /** CREATE TABLE of the log table. */
    public static String logDdl(final JdbcTableName logTable) {
        return rename(STATEMENTS.get(1), JdbcSegmentSettings.DEFAULT_TABLE + JdbcSegmentSettings.LOG_SUFFIX, logTable);
    }

    private static String rename(final String ddl, final String defaultName, final JdbcTableName table) {
        return ddl.replace("TABLE IF NOT EXISTS " + defaultName + " ", "TABLE IF NOT EXISTS " + table.value() + " ");
    }

    private static List<String> load() {
        try (InputStream in = JdbcSegmentSchema.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("SnowKey segment table DDL " + RESOURCE + " is missing from the classpath");
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(line -> !line.trim().startsWith("--"))
                    .collect(Collectors.joining("\n"));
            List<String> statements = Arrays.stream(text.split(";")).map(String::trim).filter(each -> !each.isEmpty()).toList();
            if (statements.size() != 2) {
                throw new IllegalStateException("SnowKey segment table DDL " + RESOURCE + " should hold 2 statements, holds " + statements.size());
            }
            return statements;
        } catch (final IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
