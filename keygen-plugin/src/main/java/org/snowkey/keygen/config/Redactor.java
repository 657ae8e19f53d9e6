package org.snowkey.keygen.config;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one place that removes secrets from text SnowKey writes: messages, exceptions (with every cause), log lines
 * and {@code toString()}s. It knows the secrets of one configuration (a password, a digest, the credentials inside
 * a connection URL) and replaces them wherever they appear, also Base64- or hex-encoded, and it strips the
 * credentials of any URL it finds ({@link UrlCredentials}). Drivers, pools and clients quote what they were given,
 * sometimes only a fragment of a URL, so cleaning by value is the only way that holds for every message shape.
 */
public final class Redactor {

    public static final String MASK = "****";

    /** Encodings of short secrets would match unrelated text (a two-letter password is "6162" in hex). */
    private static final int MIN_ENCODED_LENGTH = 4;

    private static final int MAX_CAUSES = 16;

    /** Strips URL credentials but knows no other secret. */
    public static final Redactor URLS_ONLY = new Redactor(Map.of());

    /** Replacements, longest first, so that a URL is replaced as a whole before a secret inside it. */
    private final Map<String, String> replacements;

    private Redactor(final Map<String, String> replacements) {
        this.replacements = replacements;
    }

    /**
     * @param url a connection URL that may carry credentials, or null
     * @param secrets other secrets of the configuration (a password, a {@code user:password} digest), nulls allowed
     */
    public static Redactor of(final String url, final String... secrets) {
        Map<String, String> found = new LinkedHashMap<>();
        if (url != null) {
            String safe = UrlCredentials.withoutCredentials(url);
            if (!safe.equals(url)) {
                found.put(url, safe);
            }
            UrlCredentials.secretsIn(url).forEach(each -> addSecret(found, each));
        }
        for (String each : secrets) {
            addSecret(found, each);
        }
        List<String> keys = new ArrayList<>(found.keySet());
        keys.sort(Comparator.comparingInt(String::length).reversed());
        Map<String, String> ordered = new LinkedHashMap<>();
        keys.forEach(each -> ordered.put(each, found.get(each)));
        return new Redactor(ordered);
    }

    private static void addSecret(final Map<String, String> found, final String secret) {
        if (secret == null || secret.isEmpty()) {
            return;
        }
        found.put(secret, MASK);
        if (secret.length() >= MIN_ENCODED_LENGTH) {
            byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
            found.put(Base64.getEncoder().encodeToString(bytes), MASK);
            found.put(Base64.getEncoder().withoutPadding().encodeToString(bytes), MASK);
            found.put(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes), MASK);
            found.put(HexFormat.of().formatHex(bytes), MASK);
            found.put(HexFormat.of().withUpperCase().formatHex(bytes), MASK);
        }
    }

    /** The text without any known secret and without credentials in any URL it contains. */
    public String clean(final String text) {
        if (text == null) {
            return null;
        }
        String result = text;
        for (Map.Entry<String, String> each : replacements.entrySet()) {
            result = result.replace(each.getKey(), each.getValue());
        }
        return UrlCredentials.scrub(result);
    }

    /**
     * The cleaned messages of an error and its causes in one line. A pool's own message ("connection is not
     * available, request timed out") hides the reason a driver gave (wrong password, connection refused), which is the
     * part an operator needs.
     */
    public String messages(final Throwable error) {
        StringBuilder result = new StringBuilder();
        Set<String> seen = new HashSet<>();
        Throwable current = error;
        for (int depth = 0; current != null && depth < MAX_CAUSES; depth++, current = current.getCause()) {
            String message = clean(current.getMessage());
            if (message != null && !message.isBlank() && seen.add(message)) {
                String name = current instanceof Redacted ? "" : current.getClass().getSimpleName() + ": ";
                result.append(result.length() == 0 ? "" : "; caused by ").append(depth == 0 ? "" : name).append(message);
            }
        }
        return result.length() == 0 ? error.getClass().getName() : result.toString();
    }

    /**
     * A copy of the chain with cleaned messages, safe to log and to attach as a cause: each copy's message starts with
     * the original class name (and SQL state), and keeps the original stack trace.
     */
    public Throwable clean(final Throwable error) {
        return copy(error, new IdentityHashMap<>(), 0);
    }

    private Throwable copy(final Throwable error, final Map<Throwable, Throwable> seen, final int depth) {
        if (error == null || depth >= MAX_CAUSES || seen.containsKey(error)) {
            return null;
        }
        RedactedException copy = new RedactedException(error instanceof Redacted ? clean(error.getMessage()) : headline(error));
        seen.put(error, copy);
        copy.setStackTrace(error.getStackTrace());
        Throwable cause = copy(error.getCause(), seen, depth + 1);
        if (cause != null) {
            copy.initCause(cause);
        }
        for (Throwable each : error.getSuppressed()) {
            Throwable suppressed = copy(each, seen, depth + 1);
            if (suppressed != null) {
                copy.addSuppressed(suppressed);
            }
        }
        return copy;
    }

    /** "class: [SQL state] cleaned message", the first line a stack trace would print. */
    public String headline(final Throwable error) {
        String state = error instanceof SQLException sql && sql.getSQLState() != null ? "[" + sql.getSQLState() + "] " : "";
        return error.getClass().getName() + ": " + state + clean(error.getMessage());
    }

    /** Marks an exception whose message was cleaned already and starts with the original class name. */
    public interface Redacted {
    }

    /** A cleaned copy of an error; its message starts with the original class name. */
    public static final class RedactedException extends Exception implements Redacted {

        private static final long serialVersionUID = 1L;

        RedactedException(final String message) {
            super(message);
        }

        @Override
        public String toString() {
            return getMessage();
        }
    }
}
