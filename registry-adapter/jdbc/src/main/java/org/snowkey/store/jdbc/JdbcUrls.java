package org.snowkey.store.jdbc;

import org.snowkey.keygen.config.UrlCredentials;

/**
 * Strips credentials out of JDBC URLs so that the URL can appear in messages, logs and scope keys; every shape
 * the supported drivers accept is handled by {@link UrlCredentials}.
 */
public final class JdbcUrls {

    private JdbcUrls() {
    }

    public static String withoutCredentials(final String url) {
        return UrlCredentials.withoutCredentials(url);
    }
}
