package org.snowkey.keygen.generator;

import java.util.Locale;

/**
 * One spelling per stream. ShardingSphere matches logic table names without regard to case or identifier quotes, so
 * {@code DB.T_ORDER}, {@code db.t_order} and {@code `db`.`t_order`} are one table; were they two streams, each
 * would count from the same millisecond on the same worker id and issue the same ids (docs/design.md, "Streams").
 * Every name is therefore reduced to lower case without quotes before it picks a stream, whoever asks: the key
 * generator with ShardingSphere's names or application code through the Spring bean.
 */
final class StreamNames {

    private StreamNames() {
    }

    /**
     * @throws IllegalArgumentException for a null or blank name
     */
    static String normalise(final String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a SnowKey stream needs a name, got " + (name == null ? "null" : "'" + name + "'"));
        }
        StringBuilder result = new StringBuilder(name.length());
        for (String part : name.split("\\.", -1)) {
            if (result.length() > 0) {
                result.append('.');
            }
            result.append(unquote(part).toLowerCase(Locale.ROOT));
        }
        return result.toString();
    }

    /** Strips white space and quotes until neither is left, so that a normalised name normalises to itself. */
    private static String unquote(final String identifier) {
        String result = identifier.trim();
        while (result.length() >= 2 && isQuoted(result)) {
            result = result.substring(1, result.length() - 1).trim();
        }
        return result;
    }

    private static boolean isQuoted(final String identifier) {
        char first = identifier.charAt(0);
        char last = identifier.charAt(identifier.length() - 1);
        return first == '`' && last == '`' || first == '"' && last == '"' || first == '[' && last == ']';
    }
}
