package org.snowkey.keygen.config;

import java.util.Locale;

/** Which sequence stream an INSERT draws from (docs/design.md, "The historical clock"). */
public enum SequenceScope {

    /** One stream per logical table: each table's ids alternate odd/even on their own; unique per table. */
    TABLE,

    /** One stream for every table of the lease scope: unique across tables, balanced only when combined. */
    GLOBAL;

    public static SequenceScope parse(final String text) {
        for (SequenceScope each : values()) {
            if (each.name().equalsIgnoreCase(text.trim())) {
                return each;
            }
        }
        throw new InvalidSettingException(PropertyNames.SEQUENCE_SCOPE, text, "expected 'table' or 'global'");
    }

    public String propertyValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
