package org.snowkey.keygen.config;

/**
 * A prop with a value SnowKey cannot use. The message names the prop, the value and what is allowed; it is the one
 * place that quotes props, so it decides what may be shown (see {@link SettingText}): a secret-looking prop never
 * shows its value, an unknown prop never does either (a misspelt password is still a password), and names and
 * values are escaped and cut so that a message stays one honest line.
 */
public class InvalidSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String property;

    public InvalidSettingException(final String property, final Object value, final String allowed) {
        this(property, SettingText.value(property, value), allowed, true);
    }

    private InvalidSettingException(final String property, final String shownValue, final String allowed, final boolean quoted) {
        super("Invalid SnowKey property '" + SettingText.quotable(property) + "'" + (quoted ? " = '" + shownValue + "'" : " " + shownValue) + ": "
                + SettingText.quotable(allowed, SettingText.MAX_EXPLANATION_LENGTH));
        this.property = property;
    }

    /** A prop no module knows: its value is not shown, since a misspelt secret is still a secret. */
    public static InvalidSettingException unknown(final String property, final Object value, final String allowed) {
        return new InvalidSettingException(property, value == null ? "(not set)" : "(value not shown)", allowed,
                false);
    }

    /** The prop name as written in the key generator props. */
    public String property() {
        return property;
    }
}
