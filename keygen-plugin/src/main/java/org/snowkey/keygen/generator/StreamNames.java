package org.snowkey.keygen.generator;

/**
 * One spelling per stream. ShardingSphere matches logic table names without regard to case or identifier quotes, so
 * {@code DB.T_ORDER}, {@code db.t_order} and {@code `db`.`t_order`} are one table; were they two streams, the table
 * would follow two low-bit cycles and lose its {@code id % 2^L} balance (docs/design.md, "One id space per worker
 * id"; ids stay unique, since the high part comes from the worker id's one counter).
 * Every name is therefore reduced to lower case without quotes before it picks a stream, whoever asks: the key
 * generator with ShardingSphere's names or application code through the Spring bean.
 *
 * <p>Folding two tables into one stream only shares a cycle: where in doubt this folds more, never less.
 */
public final class StreamNames {

    private StreamNames() {
    }

    /**
     * @throws IllegalArgumentException for a null or blank name, or one of quotes only
     */
    public static String normalise(final String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a SnowKey stream needs a name, got " + (name == null ? "null" : "'" + name + "'"));
        }
        // Quotes go before the name is split at its dots: ShardingSphere passes the table of `db`.`t.x` unquoted, as
        // t.x, so a dot inside quotes must split as the same dot outside them does (else `t.x` and t.x were two streams).
        String[] parts = withoutQuotes(name).split("\\.", -1);
        StringBuilder result = new StringBuilder(name.length());
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                result.append('.');
            }
            lowerCase(parts[i].trim(), result);
        }
        if (result.toString().isBlank()) {
            throw new IllegalArgumentException("a SnowKey stream needs a name, got '" + name + "'");
        }
        return result.toString();
    }

    private static String withoutQuotes(final String name) {
        StringBuilder result = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char each = name.charAt(i);
            if (each != '`' && each != '"' && each != '[' && each != ']') {
                result.append(each);
            }
        }
        return result.toString();
    }

    /**
     * Lower case code point by code point, as ShardingSphere's table map (cedarsoftware {@code CaseInsensitiveMap})
     * hashes names, not {@code String.toLowerCase}: that one maps a final capital sigma to the final small sigma and
     * the dotted capital I to two chars, so {@code ΟΔΟΣ} and {@code οδοσ}, or {@code İD} and {@code id}, one table to
     * ShardingSphere, were two streams.
     */
    private static void lowerCase(final String part, final StringBuilder into) {
        part.codePoints().forEach(each -> into.appendCodePoint(Character.toLowerCase(each)));
    }
}
