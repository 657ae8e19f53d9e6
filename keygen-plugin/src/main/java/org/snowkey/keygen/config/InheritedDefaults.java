package org.snowkey.keygen.config;

import java.util.Properties;
import java.util.function.Function;

/**
 * Props that every key generator of one type in this JVM inherits where its own props are silent: the Spring Boot
 * integration puts the application's {@code snowkey.*} settings here, so that a YAML key generator with no props takes
 * them. A complaint about a prop the key generator did not set says that the prop was inherited, since the user looks
 * for it in the YAML and will not find it there.
 */
public final class InheritedDefaults {

    private volatile Properties defaults = new Properties();

    /** Replaces the defaults; key generators parsed later inherit these. */
    public void set(final Properties props) {
        defaults = copy(props);
    }

    /**
     * Parses a key generator's own props laid over the defaults.
     *
     * @throws InvalidSettingException naming the prop and the value, and saying so when the prop was inherited
     */
    public <T> T parse(final Properties own, final Function<Properties, T> parse) {
        Properties inherited = defaults;
        Properties merged = copy(inherited);
        if (own != null) {
            merged.putAll(own);
        }
        try {
            return parse.apply(merged);
        } catch (InvalidSettingException ex) {
            String property = ex.property();
            if (property == null || !inherited.containsKey(property) || own != null && own.containsKey(property)) {
                throw ex;
            }
            throw ex.explained("this key generator's props do not set " + property + ": it is inherited from the application's snowkey.*"
                    + " Spring Boot properties, which every key generator of this JVM takes where its own props are silent");
        }
    }

    private static Properties copy(final Properties props) {
        Properties copy = new Properties();
        if (props != null) {
            copy.putAll(props);
        }
        return copy;
    }
}
