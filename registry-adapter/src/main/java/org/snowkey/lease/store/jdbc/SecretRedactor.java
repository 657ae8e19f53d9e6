package org.snowkey.lease.store.jdbc;

import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Removes the password and the credential-bearing URL from driver and pool error messages before they are
 * wrapped, logged or rethrown. Drivers and HikariCP sometimes quote the URL they were given, and a stack
 * trace prints every cause, so each cause of the chain is copied with a cleaned message (same class name,
 * SQL state and stack trace) instead of being attached as is.
 */
final class SecretRedactor {

    private static final int MAX_CAUSES = 16;

    private final String rawUrl;

    private final String safeUrl;

    private final String password;

    SecretRedactor(final String rawUrl, final String safeUrl, final String password) {
        this.rawUrl = rawUrl;
        this.safeUrl = safeUrl;
        this.password = password;
    }

    String clean(final String text) {
        if (text == null) {
            return null;
        }
        String result = text;
        if (rawUrl != null && !rawUrl.equals(safeUrl)) {
            result = result.replace(rawUrl, safeUrl);
        }
        if (password != null && !password.isEmpty()) {
            result = result.replace(password, "****");
        }
        return result;
    }

    /**
     * The cleaned messages of an error and its causes in one line. The pool's own message ("connection is not
     * available, request timed out") hides the reason a driver gave (wrong password, connection refused), which is
     * the part an operator needs.
     */
    String messages(final Throwable error) {
        StringBuilder result = new StringBuilder();
        java.util.Set<String> seen = new java.util.HashSet<>();
        Throwable current = error;
        for (int depth = 0; current != null && depth < MAX_CAUSES; depth++, current = current.getCause()) {
            String message = clean(current.getMessage());
            if (message != null && !message.isBlank() && seen.add(message)) {
                result.append(result.length() == 0 ? "" : "; caused by ").append(depth == 0 ? "" : current.getClass().getSimpleName() + ": ").append(message);
            }
        }
        return result.length() == 0 ? error.getClass().getName() : result.toString();
    }

    /** A copy of the chain with cleaned messages, safe to log and to attach as a cause. */
    Throwable clean(final Throwable error) {
        return copy(error, new IdentityHashMap<>(), 0);
    }

    private Throwable copy(final Throwable error, final Map<Throwable, Throwable> seen, final int depth) {
        if (error == null || depth >= MAX_CAUSES || seen.containsKey(error)) {
            return null;
        }
        String state = error instanceof SQLException sql && sql.getSQLState() != null ? "[" + sql.getSQLState() + "] " : "";
        RedactedException copy = new RedactedException(error.getClass().getName() + ": " + state + clean(error.getMessage()));
        seen.put(error, copy);
        copy.setStackTrace(error.getStackTrace());
        Throwable cause = copy(error.getCause(), seen, depth + 1);
        if (cause != null) {
            copy.initCause(cause);
        }
        return copy;
    }

    /** A cleaned copy of a driver or pool error; its message starts with the original class name. */
    static final class RedactedException extends Exception {

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
