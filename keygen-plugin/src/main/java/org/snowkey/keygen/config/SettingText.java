package org.snowkey.keygen.config;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * How prop names and values appear in messages. Props arrive from YAML, Spring properties and command lines that
 * an operator (or an attacker who controls a config source) wrote, so a message quoting them must not leak a secret
 * and must not forge log lines: a value of a prop whose name suggests a secret is never shown, control characters
 * are escaped, and long text is cut with its original length stated.
 */
public final class SettingText {

    /** Longer quoted values are cut: a message must stay one readable line, whatever was configured. */
    public static final int MAX_QUOTED_LENGTH = 200;

    /** Explanations (lists of known props, a DDL) are longer than values but still bounded. */
    public static final int MAX_EXPLANATION_LENGTH = 4_000;

    /**
     * Words that mark a prop or URL parameter as a secret, matched anywhere in the lower-cased name: generous on
     * purpose, since hiding a harmless value costs little and echoing a password cannot be undone.
     */
    private static final Pattern SECRET_NAME = Pattern.compile("pass|pwd|secret|digest|credential|token|key|auth|private|cipher|salt");

    private SettingText() {
    }

    /** Whether the name of a prop or parameter suggests its value is a secret ("jdbc-password", "sslKey", "PWD"...). */
    public static boolean isSecretName(final String name) {
        return name != null && SECRET_NAME.matcher(name.toLowerCase(Locale.ROOT)).find();
    }

    /** A value as a message may show it: hidden for a secret-looking name, escaped and cut otherwise. */
    public static String value(final String name, final Object value) {
        if (value == null) {
            return "(not set)";
        }
        String text = String.valueOf(value);
        if (isSecretName(name)) {
            // Not even the length: it narrows a guess.
            return "(hidden)";
        }
        // A URL prop ("jdbc-url") has no secret-looking name yet may carry a user and password: they never show.
        return quotable(UrlCredentials.scrub(text));
    }

    /**
     * Text safe to put into one log line: control and other invisible characters as {@code \n}, {@code \t} or
     * {@code \\uXXXX}, cut after {@value #MAX_QUOTED_LENGTH} characters with the original length stated.
     */
    public static String quotable(final String text) {
        return quotable(text, MAX_QUOTED_LENGTH);
    }

    /** As {@link #quotable(String)}, cut after {@code maxLength} characters. */
    public static String quotable(final String text, final int maxLength) {
        if (text == null) {
            return "null";
        }
        boolean cut = text.length() > maxLength;
        String shown = cut ? text.substring(0, maxLength) : text;
        StringBuilder result = new StringBuilder(shown.length() + 16);
        for (int i = 0; i < shown.length(); i++) {
            char c = shown.charAt(i);
            switch (c) {
                case '\n' -> result.append("\\n");
                case '\r' -> result.append("\\r");
                case '\t' -> result.append("\\t");
                case '\\' -> result.append("\\\\");
                default -> {
                    if (Character.isHighSurrogate(c) && i + 1 < shown.length() && Character.isLowSurrogate(shown.charAt(i + 1))) {
                        result.append(c).append(shown.charAt(++i));
                    } else if (Character.isISOControl(c) || isInvisible(c)) {
                        result.append(String.format("\\u%04x", (int) c));
                    } else {
                        result.append(c);
                    }
                }
            }
        }
        if (cut) {
            result.append("... (cut, ").append(text.length()).append(" characters in all)");
        }
        return result.toString();
    }

    /** Line and paragraph separators, bidirectional overrides and lone surrogates can disguise a line as well. */
    private static boolean isInvisible(final char c) {
        int type = Character.getType(c);
        return type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR || type == Character.FORMAT || type == Character.SURROGATE
                || type == Character.UNASSIGNED;
    }
}
