package org.snowkey.lease.store.jdbc;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Strips credentials out of JDBC URLs so that the URL can appear in messages, logs and scope keys. Drivers
 * accept credentials in the URL in three shapes: user info before the host ({@code //user:pw@host}),
 * parameters ({@code ?user=x&password=y}, H2's {@code ;PASSWORD=y}) and MariaDB's
 * {@code address=(host=h)(password=y)} blocks; all three are removed.
 */
public final class JdbcUrls {

    private static final Pattern USER_INFO = Pattern.compile("//[^/?;@]*@");

    private static final Pattern PAREN_CREDENTIAL = Pattern.compile("(?i)\\((user|password|pwd|passwd)=[^)]*\\)");

    private static final Set<String> CREDENTIAL_KEYS = Set.of("user", "username", "password", "pwd", "passwd");

    private JdbcUrls() {
    }

    public static String withoutCredentials(final String url) {
        if (url == null) {
            return null;
        }
        String result = USER_INFO.matcher(url).replaceFirst("//");
        result = PAREN_CREDENTIAL.matcher(result).replaceAll("");
        return withoutCredentialParameters(result);
    }

    /** Drops {@code key=value} segments whose key names a credential, keeping the other parameters and delimiters. */
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
        return CREDENTIAL_KEYS.contains(key) || key.contains("password");
    }
}
