package org.snowkey.store.jdbc;

import java.util.regex.Pattern;

/**
 * The name of one of SnowKey's tables (the lease table, the segment tables), validated as a plain SQL identifier
 * (optionally schema-qualified). The name is spliced into SQL text, because identifiers cannot be bound as parameters, so only letters, digits and
 * underscores pass: nothing that could end a statement or open a string or comment. 63 characters per part
 * is PostgreSQL's limit and fits MySQL's 64.
 */
public record JdbcTableName(String value) {

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}(\\.[A-Za-z_][A-Za-z0-9_]{0,62})?");

    /** What a valid name looks like, for error messages. */
    public static final String RULE = "a table name of letters, digits and underscores, not starting with a digit, at most 63 characters, "
            + "optionally prefixed by a schema name and a dot (e.g. snowkey_worker_lease or ops.snowkey_worker_lease)";

    public JdbcTableName {
        if (value == null || !IDENTIFIER.matcher(value).matches()) {
            throw new IllegalArgumentException("'" + value + "' is not " + RULE);
        }
    }

    @Override
    public String toString() {
        return value;
    }
}
