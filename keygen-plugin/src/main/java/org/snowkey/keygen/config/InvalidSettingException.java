package org.snowkey.keygen.config;

/**
 * A prop with a value SnowKey cannot use. The message names the prop, the value and what is allowed; it is the one
 * place that quotes props, so it decides what may be shown (see {@link SettingText}): a secret-looking prop never
 * shows its value, an unknown prop never does either (a misspelt password is still a password), and names and
 * values are escaped and cut so that a message stays one honest line.
 *
 * <p>The three parts are also fields ({@link #property()}, {@link #shownValue()}, {@link #allowed()}), so that a
 * layer which names settings otherwise (the Spring integration's {@code snowkey.*}) can tell the same complaint in
 * its own names without reading the message text.
 */
public class InvalidSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** Shown instead of the value of an unknown prop. */
    public static final String VALUE_NOT_SHOWN = "(value not shown)";

    private final String property;

    private final String shownValue;

    private final boolean valueQuoted;

    private final String allowed;

    public InvalidSettingException(final String property, final Object value, final String allowed) {
        this(property, SettingText.value(property, value), allowed, true);
    }

    private InvalidSettingException(final String property, final String shownValue, final String allowed, final boolean valueQuoted) {
        super(message(property, shownValue, valueQuoted, allowed));
        this.property = property;
        this.shownValue = shownValue;
        this.valueQuoted = valueQuoted;
        this.allowed = allowed;
    }

    /** A prop no module knows: its value is not shown, since a misspelt secret is still a secret. */
    public static InvalidSettingException unknown(final String property, final Object value, final String allowed) {
        return new InvalidSettingException(property, value == null ? "(not set)" : VALUE_NOT_SHOWN, allowed, false);
    }

    /**
     * The one message style of an invalid setting: {@code Invalid SnowKey property 'x' = 'v': allowed}, or without
     * {@code = '...'} when the value is not shown at all.
     *
     * @param property the setting's name in the caller's terms
     * @param shownValue the value as it may be shown (already redacted)
     * @param valueQuoted false when {@code shownValue} only says that the value is not shown
     * @param allowed what is allowed, or why the value cannot apply
     */
    public static String message(final String property, final String shownValue, final boolean valueQuoted, final String allowed) {
        return "Invalid SnowKey property '" + SettingText.quotable(property) + "'" + (valueQuoted ? " = '" + shownValue + "'" : " " + shownValue) + ": "
                + SettingText.quotable(allowed, SettingText.MAX_EXPLANATION_LENGTH);
    }

    /**
     * The same complaint with a further explanation after what is allowed (the value stays as redacted as it was).
     * This exception becomes the cause.
     */
    public InvalidSettingException explained(final String explanation) {
        InvalidSettingException result = new InvalidSettingException(property, shownValue, allowed + " (" + explanation + ")", valueQuoted);
        result.initCause(this);
        return result;
    }

    /** The prop name as written in the key generator props. */
    public String property() {
        return property;
    }

    /** The value as the message shows it: redacted for secrets, escaped and cut; "(not set)" when missing. */
    public String shownValue() {
        return shownValue;
    }

    /** Whether the message quotes the value; false for an unknown prop, whose value is never shown. */
    public boolean valueQuoted() {
        return valueQuoted;
    }

    /** What is allowed, or why the value cannot apply, unescaped. */
    public String allowed() {
        return allowed;
    }
}
