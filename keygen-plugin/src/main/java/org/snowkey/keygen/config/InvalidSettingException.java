package org.snowkey.keygen.config;

/** A prop with a value SnowKey cannot use. The message names the prop, the value and what is allowed. */
public class InvalidSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String property;

    public InvalidSettingException(final String property, final Object value, final String allowed) {
        super("Invalid SnowKey property '" + property + "' = '" + value + "': " + allowed);
        this.property = property;
    }

    /** The prop name as written in the key generator props. */
    public String property() {
        return property;
    }
}
