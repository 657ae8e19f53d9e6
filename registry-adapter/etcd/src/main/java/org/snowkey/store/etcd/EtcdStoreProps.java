package org.snowkey.store.etcd;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.mode.ClusterRegistry;

/**
 * The etcd props ({@code etcd-*}), the same for the worker-id lease and the segment allocator, validated at start-up.
 * Explicit props win; in ShardingSphere Cluster mode with an etcd repository, missing endpoints and namespace come
 * from the mode. The password comes from exactly one of {@code etcd-password}, {@code etcd-password-env} (the name of
 * an environment variable) or {@code etcd-password-file} (a file holding it), so that it need not stand in a YAML
 * file; no message ever shows it.
 */
public final class EtcdStoreProps {

    public static final String ENDPOINTS = "etcd-endpoints";

    public static final String NAMESPACE = "etcd-namespace";

    public static final String USER = "etcd-user";

    public static final String PASSWORD = "etcd-password";

    public static final String PASSWORD_ENV = "etcd-password-env";

    public static final String PASSWORD_FILE = "etcd-password-file";

    public static final String CA_FILE = "etcd-ca-file";

    public static final String CERT_FILE = "etcd-cert-file";

    public static final String KEY_FILE = "etcd-key-file";

    public static final String REQUEST_TIMEOUT = "etcd-request-timeout-milliseconds";

    public static final Set<String> NAMES = Set.of(ENDPOINTS, NAMESPACE, USER, PASSWORD, PASSWORD_ENV, PASSWORD_FILE, CA_FILE, CERT_FILE, KEY_FILE, REQUEST_TIMEOUT);

    /** Used outside Cluster mode when no namespace is configured: SnowKey's keys then live under {@code snowkey/snowkey/}. */
    public static final String DEFAULT_NAMESPACE = "snowkey";

    /** Without {@link #REQUEST_TIMEOUT}: a request waits this long at most, bounded by the caller's own timeout. */
    private static final long MAX_DEFAULT_TIMEOUT_MILLIS = 5_000L;

    private static final long MIN_TIMEOUT_MILLIS = 100L;

    private static final long MAX_TIMEOUT_MILLIS = 60_000L;

    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9_.\\-]+|\\[[0-9A-Fa-f:.]+]");

    private static final Pattern NAMESPACE_NAME = Pattern.compile("[A-Za-z0-9_.\\-]{1,128}");

    private EtcdStoreProps() {
    }

    /**
     * The etcd props as configured, validated; a null value is not set, and may still come from Cluster mode.
     *
     * @param endpoints the normalized endpoints, or null
     * @param namespace the namespace, or null
     * @param user the user, or null
     * @param password the password, read from its prop, variable or file; never shown
     * @param requestTimeoutMillis the configured request timeout, or 0 when not set
     */
    public record Configured(List<URI> endpoints, String namespace, String user, String password, Path caFile, Path certFile, Path keyFile,
                             long requestTimeoutMillis) {

        @Override
        public String toString() {
            return "Configured[endpoints=" + endpoints + ", namespace=" + namespace + ", user=" + user + ", password=" + (password == null ? null : "(hidden)") + "]";
        }
    }

    /**
     * Parses and validates the props alone, once, before the mode is known. Reads the password's variable or file.
     *
     * @param environment the process environment ({@code System.getenv()})
     * @throws InvalidSettingException naming the prop and the value (never a password's)
     */
    public static Configured parse(final PropertyReader reader, final Map<String, String> environment) {
        String endpointsText = reader.text(ENDPOINTS);
        Path caFile = readableFile(reader, CA_FILE);
        Path certFile = readableFile(reader, CERT_FILE);
        Path keyFile = readableFile(reader, KEY_FILE);
        if ((certFile == null) != (keyFile == null)) {
            String set = certFile == null ? KEY_FILE : CERT_FILE;
            throw new InvalidSettingException(set, reader.text(set), "a client certificate needs both " + CERT_FILE + " and " + KEY_FILE);
        }
        boolean tlsFiles = caFile != null || certFile != null;
        List<URI> endpoints = endpointsText == null ? null : normalizeEndpoints(endpointsText, ENDPOINTS, tlsFiles);
        String namespace = reader.text(NAMESPACE);
        String user = reader.text(USER);
        String password = password(reader, environment);
        if (user != null && password == null) {
            throw new InvalidSettingException(USER, user, "a user needs a password: set one of " + PASSWORD + ", " + PASSWORD_ENV + " or " + PASSWORD_FILE);
        }
        if (user == null && password != null) {
            throw new InvalidSettingException(USER, null, "a password is set but no user; set " + USER);
        }
        long timeout = reader.has(REQUEST_TIMEOUT) ? reader.longValue(REQUEST_TIMEOUT, 0, MIN_TIMEOUT_MILLIS, MAX_TIMEOUT_MILLIS) : 0;
        return new Configured(endpoints, namespace == null ? null : checkNamespace(namespace, NAMESPACE), user, password, caFile, certFile, keyFile, timeout);
    }

    /**
     * The store settings: the props as parsed, and from an etcd Cluster mode what they leave unset.
     *
     * @param waitBoundMillis bounds a request's timeout when {@link #REQUEST_TIMEOUT} is not set (the lease's acquire
     *        timeout, half a segment fetch timeout)
     * @throws InvalidSettingException when no endpoint is set and the mode supplies none
     */
    public static EtcdStoreSettings resolve(final Configured configured, final Optional<ClusterRegistry> cluster, final long waitBoundMillis) {
        Optional<ClusterRegistry> etcdMode = cluster.filter(each -> "etcd".equals(String.valueOf(each.type()).toLowerCase(Locale.ROOT)));
        boolean tlsFiles = configured.caFile() != null || configured.certFile() != null;
        List<URI> endpoints = configured.endpoints();
        if (endpoints == null) {
            String fromMode = etcdMode.map(ClusterRegistry::serverLists).filter(each -> !each.isBlank()).orElse(null);
            if (fromMode == null) {
                throw new InvalidSettingException(ENDPOINTS, null, "required unless ShardingSphere runs in Cluster mode with an etcd repository; "
                        + "expected http://host:port[,http://host:port...] (https:// with TLS), e.g. http://127.0.0.1:2379");
            }
            endpoints = normalizeEndpoints(fromMode, ENDPOINTS + " (from the Cluster mode server-lists)", tlsFiles);
        }
        String namespace = configured.namespace() != null ? configured.namespace()
                : checkNamespace(etcdMode.map(ClusterRegistry::namespace).filter(each -> !each.isBlank()).orElse(DEFAULT_NAMESPACE), NAMESPACE + " (from the Cluster mode namespace)");
        long timeout = configured.requestTimeoutMillis() > 0 ? configured.requestTimeoutMillis()
                : Math.max(MIN_TIMEOUT_MILLIS, Math.min(MAX_DEFAULT_TIMEOUT_MILLIS, waitBoundMillis));
        return new EtcdStoreSettings(endpoints, namespace, configured.user(), configured.password(), configured.caFile(), configured.certFile(), configured.keyFile(),
                timeout);
    }

    /** At most one source; a password is taken as written (spaces may belong to it), a file's without its line end. */
    private static String password(final PropertyReader reader, final Map<String, String> environment) {
        List<String> sources = new ArrayList<>();
        for (String each : List.of(PASSWORD, PASSWORD_ENV, PASSWORD_FILE)) {
            if (reader.props().get(each) != null) {
                sources.add(each);
            }
        }
        if (sources.size() > 1) {
            throw new InvalidSettingException(sources.get(1), "(hidden)", "set one of " + PASSWORD + ", " + PASSWORD_ENV + " and " + PASSWORD_FILE + ", not " + sources);
        }
        if (sources.isEmpty()) {
            return null;
        }
        if (sources.get(0).equals(PASSWORD)) {
            return String.valueOf(reader.props().get(PASSWORD));
        }
        if (sources.get(0).equals(PASSWORD_ENV)) {
            String variable = reader.text(PASSWORD_ENV);
            String value = variable == null ? null : environment.get(variable);
            if (value == null || value.isEmpty()) {
                throw new InvalidSettingException(PASSWORD_ENV, variable, "names no set environment variable of this process");
            }
            return value;
        }
        Path file = readableFile(reader, PASSWORD_FILE);
        try {
            String value = Files.readString(file, StandardCharsets.UTF_8);
            value = value.endsWith("\r\n") ? value.substring(0, value.length() - 2) : value.endsWith("\n") ? value.substring(0, value.length() - 1) : value;
            if (value.isEmpty()) {
                throw new InvalidSettingException(PASSWORD_FILE, file.toString(), "the file is empty");
            }
            return value;
        } catch (final IOException ex) {
            throw new InvalidSettingException(PASSWORD_FILE, file.toString(), "the file cannot be read: " + ex.getClass().getSimpleName());
        }
    }

    private static Path readableFile(final PropertyReader reader, final String prop) {
        String text = reader.text(prop);
        if (text == null) {
            return null;
        }
        Path path;
        try {
            path = Path.of(text);
        } catch (final InvalidPathException ex) {
            throw new InvalidSettingException(prop, text, "expected the path of a readable file");
        }
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new InvalidSettingException(prop, text, "expected the path of a readable file; there is none");
        }
        return path;
    }

    private static String checkNamespace(final String namespace, final String prop) {
        if (!NAMESPACE_NAME.matcher(namespace).matches() || ".".equals(namespace) || "..".equals(namespace)) {
            throw new InvalidSettingException(prop, namespace, "expected 1 to 128 letters, digits, '_', '-' or '.'");
        }
        return namespace;
    }

    /**
     * Each entry {@code scheme://host:port} or {@code host:port} (then https with TLS files set, http otherwise); every
     * endpoint of one client uses one scheme. The order is kept: the client tries them in it.
     */
    static List<URI> normalizeEndpoints(final String text, final String prop, final boolean tlsFiles) {
        List<URI> result = new ArrayList<>();
        for (String raw : text.split(",")) {
            String entry = raw.trim();
            String withScheme = entry.contains("://") ? entry : (tlsFiles ? "https://" : "http://") + entry;
            URI uri;
            try {
                uri = new URI(withScheme);
            } catch (final URISyntaxException ex) {
                throw new InvalidSettingException(prop, text, "'" + entry + "' is not http://host:port or https://host:port");
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null || !HOST.matcher(uri.getHost()).matches() || uri.getPort() < 1
                    || uri.getPort() > 65535 || uri.getUserInfo() != null || uri.getQuery() != null || uri.getFragment() != null
                    || uri.getPath() != null && !uri.getPath().isEmpty() && !uri.getPath().equals("/")) {
                throw new InvalidSettingException(prop, text, "'" + entry + "' is not http://host:port or https://host:port (a port from 1 to 65535, no path)");
            }
            URI normalized = URI.create(scheme + "://" + uri.getHost() + ":" + uri.getPort());
            if (!result.isEmpty() && !result.get(0).getScheme().equals(scheme)) {
                throw new InvalidSettingException(prop, text, "mixes http and https endpoints; use one scheme for all");
            }
            if (scheme.equals("http") && tlsFiles) {
                throw new InvalidSettingException(prop, text, "'" + entry + "' is plain http, yet " + CA_FILE + " or " + CERT_FILE + " is set; use https://");
            }
            if (!result.contains(normalized)) {
                result.add(normalized);
            }
        }
        return result;
    }
}
