package org.snowkey.store.jdbc;

import java.util.Set;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.PropertyReader;

/**
 * The JDBC props ({@code jdbc-*}), the same for the worker-id lease and the segment allocator, validated without
 * connecting. Messages quote the URL only without its credentials and never quote the password.
 */
public final class JdbcStoreProps {

    public static final String URL = "jdbc-url";

    public static final String USERNAME = "jdbc-username";

    public static final String PASSWORD = "jdbc-password";

    public static final String TABLE = "jdbc-table";

    public static final String CREATE_TABLE = "jdbc-create-table";

    public static final Set<String> NAMES = Set.of(URL, USERNAME, PASSWORD, TABLE, CREATE_TABLE);

    private JdbcStoreProps() {
    }

    /**
     * The JDBC props of a lease or of a segment allocator.
     *
     * @param reader the key generator props
     * @param requiredWith what makes {@code jdbc-url} required, for the message ("lease-registry = jdbc")
     * @param defaultTable the table when {@code jdbc-table} is not set
     * @param timeoutMillis how long one connection attempt or statement may take
     * @throws InvalidSettingException naming the prop and the value
     */
    public static JdbcStoreSettings parse(final PropertyReader reader, final String requiredWith, final String defaultTable, final long timeoutMillis) {
        String url = reader.text(URL);
        if (url == null) {
            throw new InvalidSettingException(URL, "(not set)", "required with " + requiredWith + "; a JDBC URL such as jdbc:postgresql://db:5432/app "
                    + "or jdbc:mysql://db:3306/app (credentials go into " + USERNAME + " and " + PASSWORD + ")");
        }
        if (!url.startsWith("jdbc:") || url.length() <= "jdbc:".length()) {
            throw new InvalidSettingException(URL, JdbcUrls.withoutCredentials(url), "expected a JDBC URL starting with 'jdbc:'");
        }
        JdbcTableName table;
        try {
            table = new JdbcTableName(reader.text(TABLE, defaultTable));
        } catch (final IllegalArgumentException ex) {
            throw new InvalidSettingException(TABLE, reader.text(TABLE), "expected " + JdbcTableName.RULE);
        }
        boolean createTable = reader.booleanValue(CREATE_TABLE, true);
        // The password is taken as written (spaces may be part of it); an empty one means none.
        Object password = reader.props().get(PASSWORD);
        return new JdbcStoreSettings(url, reader.text(USERNAME), password == null ? null : String.valueOf(password), table, createTable, timeoutMillis);
    }
}
