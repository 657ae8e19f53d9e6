package org.snowkey.spring.autoconfigure;

/** A {@code snowkey.*} property with a value SnowKey cannot use; the message names the property and what is allowed. */
public class SnowKeyConfigurationException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String property;

    public SnowKeyConfigurationException(final String property, final String message, final Throwable cause) {
        super(message, cause);
        this.property = property;
    }

    /** The {@code snowkey.*} property at fault. */
    public String property() {
        return property;
    }
}
