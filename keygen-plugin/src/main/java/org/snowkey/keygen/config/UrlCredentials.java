package org.snowkey.keygen.config;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds and strips the credentials a connection URL may carry, in every shape the supported drivers accept:
 * <ul>
 *   <li>user info before a host, also per host of an address list: {@code //user:pw@h1,user:pw@h2/db};</li>
 *   <li>Oracle's {@code thin:user/pw@host};</li>
 *   <li>key-value blocks of MySQL and MariaDB: {@code (host=h,user=u,password=pw)} and
 *       {@code address=(host=h)(password=pw)}, also inside {@code [...]} address lists;</li>
 *   <li>parameters after {@code ?}, {@code &} or {@code ;} (H2, SQL Server) whose name, in any case, is a user or
 *       suggests a secret ({@link SettingText#isSecretName}): {@code password}, {@code PWD}, {@code sslpassword},
 *       {@code sslkey}, {@code trustCertificateKeyStorePassword}...</li>
 * </ul>
 * {@link #withoutCredentials} gives the URL an operator may see; {@link #secretsIn} gives the secret values, so that a
 * driver message quoting only a fragment of the URL ("UnknownHostException: postgres:pw@db") is cleaned too.
 */
public final class UrlCredentials {

    private static final Pattern ORACLE_THIN = Pattern.compile("(?i)(jdbc:oracle:thin:)([^@/]*)/([^@]*)@");

    /** {@code key=value} inside a parenthesised block: the key, and the value up to the next ',' or ')'. */
    private static final Pattern PAREN_ENTRY = Pattern.compile("([(,])\\s*([A-Za-z0-9_.\\-]+)\\s*=\\s*([^,()]*)");

    /** Any URL in free text: a JDBC URL or a {@code scheme://} one, up to white space or a quote. */
    private static final Pattern URL_IN_TEXT = Pattern.compile("(?i)(?:jdbc:|\\b[a-z][a-z0-9+.\\-]*://)[^\\s'\"<>`]+");

    private static final Set<String> USER_KEYS = Set.of("user", "username", "uid", "user id", "userid");

    private UrlCredentials() {
    }

    /** The URL without user info, user or secret parameters and key-value credentials; null for null. */
    public static String withoutCredentials(final String url) {
        if (url == null) {
            return null;
        }
        String result = ORACLE_THIN.matcher(url).replaceAll("$1@");
        result = withoutUserInfo(result);
        result = withoutParenCredentials(result);
        return withoutCredentialParameters(result);
    }

    /** Every URL found in free text, stripped of its credentials. */
    public static String scrub(final String text) {
        if (text == null) {
            return null;
        }
        Matcher matcher = URL_IN_TEXT.matcher(text);
        StringBuilder result = new StringBuilder(text.length());
        while (matcher.find()) {
            matcher.appendReplacement(result, Matcher.quoteReplacement(withoutCredentials(matcher.group())));
        }
        matcher.appendTail(result);
        return result.toString();
    }

    /**
     * The secret values the URL carries (passwords of user info, secret parameters and key-value blocks), as written
     * and percent-decoded: a driver may quote either.
     */
    public static Set<String> secretsIn(final String url) {
        return find(url).secrets();
    }

    /**
     * Every user the URL itself gives, each as written with the form that gives it: {@code name} for a {@code user=}
     * parameter, {@code KEY=name} for a parameter of another spelling ({@code USER=}, {@code username=}),
     * {@code name@} for user info, {@code (key=name)} for a key-value entry, {@code name/} for Oracle's
     * {@code user/password@}. In the order written within each form, repeats and empty names kept. Not secrets: what the
     * scope of a JDBC store needs besides the URL without credentials, since an unqualified table lies in the
     * connecting user's schema, and which of them a driver connects as depends on all of this: pgjdbc and MariaDB
     * Connector/J take the last {@code user=}, pgjdbc ignores {@code USER=}, H2 refuses a second {@code USER}.
     */
    public static List<String> usersAsWritten(final String url) {
        return find(url).users();
    }

    /**
     * The users and the secrets a URL carries, found in one pass over each URL form.
     *
     * @param users the users the URL gives, as written ({@link #usersAsWritten})
     * @param secrets the secret values it carries ({@link #secretsIn})
     */
    public record Found(List<String> users, Set<String> secrets) {
    }

    /** Parses the credentials of a URL once: the users and the secrets of each form together. */
    public static Found find(final String url) {
        List<String> users = new ArrayList<>();
        Set<String> secrets = new LinkedHashSet<>();
        if (url == null) {
            return new Found(users, secrets);
        }
        Matcher oracle = ORACLE_THIN.matcher(url);
        while (oracle.find()) {
            users.add(oracle.group(2) + "/");
            add(secrets, oracle.group(3));
        }
        for (String each : userInfos(url)) {
            int colon = each.indexOf(':');
            users.add((colon >= 0 ? each.substring(0, colon) : each) + "@");
            if (colon >= 0) {
                add(secrets, each.substring(colon + 1));
            }
        }
        Matcher entry = PAREN_ENTRY.matcher(url);
        while (entry.find()) {
            if (USER_KEYS.contains(entry.group(2).toLowerCase(Locale.ROOT))) {
                users.add("(" + entry.group(2) + "=" + entry.group(3).trim() + ")");
            }
            if (SettingText.isSecretName(entry.group(2))) {
                add(secrets, entry.group(3).trim());
            }
        }
        for (String segment : parameterSegments(url)) {
            int equals = segment.indexOf('=');
            if (equals > 0) {
                String key = segment.substring(0, equals);
                String value = segment.substring(equals + 1);
                if (USER_KEYS.contains(key.trim().toLowerCase(Locale.ROOT))) {
                    users.add("user".equals(key) ? value : key + "=" + value);
                }
                if (SettingText.isSecretName(key)) {
                    add(secrets, value);
                }
            }
        }
        return new Found(Collections.unmodifiableList(users), Collections.unmodifiableSet(secrets));
    }

    private static void add(final Set<String> secrets, final String value) {
        if (value == null || value.isEmpty()) {
            return;
        }
        secrets.add(value);
        try {
            secrets.add(URLDecoder.decode(value, StandardCharsets.UTF_8));
        } catch (final IllegalArgumentException ex) {
            // Not percent-encoded after all: the raw form is enough.
        }
    }

    /** Start and end of the authority: after "//", up to the first '/', '?' or '#' outside parentheses and brackets. */
    private static int[] authority(final String url) {
        int start = url.indexOf("//");
        if (start < 0) {
            return null;
        }
        start += 2;
        int depth = 0;
        int end = start;
        for (; end < url.length(); end++) {
            char c = url.charAt(end);
            if (c == '(' || c == '[') {
                depth++;
            } else if (c == ')' || c == ']') {
                depth = Math.max(0, depth - 1);
            } else if (depth == 0 && (c == '/' || c == '?' || c == '#' || c == ';')) {
                break;
            }
        }
        return new int[] {start, end};
    }

    /** The user-info parts ("user:pw") of each host of the authority. */
    private static List<String> userInfos(final String url) {
        List<String> result = new ArrayList<>();
        int[] authority = authority(url);
        if (authority == null) {
            return result;
        }
        for (String host : splitHosts(url.substring(authority[0], authority[1]))) {
            int at = host.lastIndexOf('@');
            if (at >= 0) {
                result.add(host.substring(0, at).replaceFirst("^[\\[(]", ""));
            }
        }
        return result;
    }

    private static String withoutUserInfo(final String url) {
        int[] authority = authority(url);
        if (authority == null) {
            return url;
        }
        List<String> hosts = splitHosts(url.substring(authority[0], authority[1]));
        StringBuilder cleaned = new StringBuilder();
        for (String host : hosts) {
            if (!cleaned.isEmpty()) {
                cleaned.append(',');
            }
            int at = host.lastIndexOf('@');
            if (at < 0 || host.startsWith("(")) {
                cleaned.append(host);
            } else {
                cleaned.append(host.startsWith("[") ? "[" : "").append(host.substring(at + 1));
            }
        }
        return url.substring(0, authority[0]) + cleaned + url.substring(authority[1]);
    }

    /** Hosts of an authority, split at commas outside parentheses. */
    private static List<String> splitHosts(final String authority) {
        List<String> result = new ArrayList<>();
        int depth = 0;
        int from = 0;
        for (int i = 0; i < authority.length(); i++) {
            char c = authority.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
            } else if (c == ',' && depth == 0) {
                result.add(authority.substring(from, i));
                from = i + 1;
            }
        }
        result.add(authority.substring(from));
        return result;
    }

    /** Drops {@code user=} and secret entries from parenthesised blocks, and blocks left empty. */
    private static String withoutParenCredentials(final String url) {
        Matcher matcher = PAREN_ENTRY.matcher(url);
        StringBuilder result = new StringBuilder(url.length());
        while (matcher.find()) {
            String key = matcher.group(2).toLowerCase(Locale.ROOT);
            boolean drop = USER_KEYS.contains(key) || SettingText.isSecretName(key);
            // Keep the opening '(' so that the block stays well formed; a dropped first entry takes its comma with it.
            matcher.appendReplacement(result, Matcher.quoteReplacement(drop ? ("(".equals(matcher.group(1)) ? "(" : "") : matcher.group()));
        }
        matcher.appendTail(result);
        return result.toString().replace("(,", "(").replace("()", "");
    }

    private static List<String> parameterSegments(final String url) {
        List<String> result = new ArrayList<>();
        int position = nextDelimiter(url, 0);
        while (position >= 0 && position < url.length()) {
            int end = nextDelimiter(url, position + 1);
            result.add(url.substring(position + 1, end < 0 ? url.length() : end));
            position = end;
        }
        return result;
    }

    /** Drops {@code key=value} parameters whose key is a user or a secret, keeping the others and the delimiters. */
    private static String withoutCredentialParameters(final String url) {
        int first = nextDelimiter(url, 0);
        if (first < 0) {
            return url;
        }
        StringBuilder result = new StringBuilder(url.length()).append(url, 0, first);
        // Set when the parameter that opened the query ('?') was dropped: the next kept one opens it instead.
        boolean queryStartDropped = false;
        int position = first;
        while (position < url.length()) {
            char delimiter = url.charAt(position);
            int end = nextDelimiter(url, position + 1);
            int segmentEnd = end < 0 ? url.length() : end;
            String segment = url.substring(position + 1, segmentEnd);
            if (isCredential(segment)) {
                queryStartDropped |= delimiter == '?';
            } else {
                result.append(queryStartDropped && delimiter == '&' ? '?' : delimiter).append(segment);
                queryStartDropped &= delimiter != '&';
            }
            position = segmentEnd;
        }
        return result.toString();
    }

    private static int nextDelimiter(final String url, final int from) {
        for (int i = from; i < url.length(); i++) {
            char c = url.charAt(i);
            if (c == '?' || c == '&' || c == ';') {
                return i;
            }
        }
        return -1;
    }

    private static boolean isCredential(final String segment) {
        int equals = segment.indexOf('=');
        String key = (equals < 0 ? segment : segment.substring(0, equals)).trim().toLowerCase(Locale.ROOT);
        return USER_KEYS.contains(key) || SettingText.isSecretName(key);
    }
}
