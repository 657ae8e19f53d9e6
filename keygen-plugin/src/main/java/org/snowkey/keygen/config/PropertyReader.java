package org.snowkey.keygen.config;

import java.util.Properties;

/**
 * Reads typed values out of key generator props with errors that name the prop and the value.
 * ShardingSphere hands YAML scalars over as Strings or boxed numbers, so values are read as objects.
 */
public final class PropertyReader {

    private final Properties props;

    public PropertyReader(final Properties props) {
        this.props = props == null ? new Properties() : props;
    }

    public Properties props() {
        return props;
    }

    public boolean has(final String name) {
        Object value = props.get(name);
        return value != null && !String.valueOf(value).isBlank();
    }

    /** The trimmed text of a prop, or null when absent or blank. */
    public String text(final String name) {
        return has(name) ? String.valueOf(props.get(name)).trim() : null;
    }

    public String text(final String name, final String defaultValue) {
        String text = text(name);
        return text == null ? defaultValue : text;
    }

    public long longValue(final String name, final long defaultValue, final long min, final long max) {
        String text = text(name);
        if (text == null) {
            return defaultValue;
        }
        long value;
        try {
            value = Long.parseLong(text);
        } catch (final NumberFormatException ex) {
            throw new InvalidSettingException(name, props.get(name), "expected a whole number from " + min + " to " + max);
        }
        if (value < min || value > max) {
            throw new InvalidSettingException(name, props.get(name), "expected a whole number from " + min + " to " + max);
        }
        return value;
    }

    public int intValue(final String name, final int defaultValue, final int min, final int max) {
        return (int) longValue(name, defaultValue, min, max);
    }

    public boolean booleanValue(final String name, final boolean defaultValue) {
        String text = text(name);
        if (text == null) {
            return defaultValue;
        }
        if ("true".equalsIgnoreCase(text) || "false".equalsIgnoreCase(text)) {
            return Boolean.parseBoolean(text);
        }
        throw new InvalidSettingException(name, props.get(name), "expected true or false");
    }
}
