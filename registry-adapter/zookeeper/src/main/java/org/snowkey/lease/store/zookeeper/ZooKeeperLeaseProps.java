package org.snowkey.lease.store.zookeeper;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.mode.ClusterRegistry;

/**
 * The ZooKeeper props of the key generator, validated without connecting. Explicit props win; in ShardingSphere
 * Cluster mode with a ZooKeeper repository, a missing server list, namespace or digest comes from the mode.
 */
public final class ZooKeeperLeaseProps {

    public static final String SERVER_LISTS = "zookeeper-server-lists";

    public static final String NAMESPACE = "zookeeper-namespace";

    public static final String DIGEST = "zookeeper-digest";

    public static final Set<String> NAMES = Set.of(SERVER_LISTS, NAMESPACE, DIGEST);

    /** Used outside Cluster mode when no namespace is configured: lease nodes then live under {@code /snowkey/snowkey}. */
    public static final String DEFAULT_NAMESPACE = "snowkey";

    /** ShardingSphere's ZooKeeper repository prop holding its digest. */
    private static final String MODE_DIGEST = "digest";

    private static final Pattern SERVER = Pattern.compile("[A-Za-z0-9_.\\-]+|\\[[0-9A-Fa-f:.]+]");

    private static final Pattern NAMESPACE_NAME = Pattern.compile("[A-Za-z0-9_.\\-]{1,128}");

    /** Curator's own default; an operation waits this long at most for a connection, bounded by the acquire timeout. */
    private static final int MAX_CONNECTION_TIMEOUT_MILLIS = 5_000;

    private ZooKeeperLeaseProps() {
    }

    /** Stands for the server lists that Cluster mode will supply, in a plan made before the mode is known. */
    static final String SERVERS_FROM_MODE = "(from the Cluster mode configuration)";

    /**
     * The ZooKeeper props as configured, validated; a null value is not set, and may still come from Cluster mode.
     *
     * @param serverLists the normalized server lists, or null
     * @param namespace the namespace, or null
     * @param digest user:password, or null
     */
    public record Configured(String serverLists, String namespace, String digest) {

        @Override
        public String toString() {
            return "Configured[serverLists=" + serverLists + ", namespace=" + namespace + ", digest=" + (digest == null ? null : "(hidden)") + "]";
        }
    }

    /**
     * @param reader the key generator props
     * @param cluster the Cluster mode repository, if any
     * @param modeResolved false before ShardingSphere said which mode it runs in: missing servers may still come from it
     * @param acquireTimeoutMillis bounds how long one operation may wait for a connection
     * @throws InvalidSettingException naming the prop and the value
     */
    public static ZooKeeperStoreSettings parse(final PropertyReader reader, final Optional<ClusterRegistry> cluster, final boolean modeResolved,
                                               final long acquireTimeoutMillis) {
        return resolve(parse(reader), cluster, modeResolved, acquireTimeoutMillis);
    }

    /**
     * Parses and validates the props alone, once, before the mode is known.
     *
     * @throws InvalidSettingException naming the prop and the value
     */
    public static Configured parse(final PropertyReader reader) {
        String servers = reader.text(SERVER_LISTS);
        String namespace = reader.text(NAMESPACE);
        String digest = reader.text(DIGEST);
        return new Configured(servers == null ? null : normalizeServers(servers, SERVER_LISTS), namespace == null ? null : checkNamespace(namespace),
                digest == null ? null : checkDigest(digest));
    }

    /**
     * The store settings: the props as parsed, and from a ZooKeeper Cluster mode what they leave unset (checked here,
     * since they are not props).
     *
     * @param modeResolved false before ShardingSphere said which mode it runs in: missing servers may still come from it
     * @param acquireTimeoutMillis bounds how long one operation may wait for a connection
     * @throws InvalidSettingException when no server list is set and the mode supplies none
     */
    public static ZooKeeperStoreSettings resolve(final Configured configured, final Optional<ClusterRegistry> cluster, final boolean modeResolved,
                                                 final long acquireTimeoutMillis) {
        Optional<ClusterRegistry> zookeeperMode = cluster.filter(each -> "zookeeper".equals(String.valueOf(each.type()).toLowerCase(Locale.ROOT)));
        String servers = configured.serverLists();
        if (servers == null) {
            String fromMode = zookeeperMode.map(ClusterRegistry::serverLists).filter(each -> !each.isBlank()).orElse(null);
            if (fromMode != null) {
                servers = normalizeServers(fromMode, SERVER_LISTS + " (from the Cluster mode server-lists)");
            } else if (!modeResolved) {
                servers = SERVERS_FROM_MODE;
            } else {
                throw new InvalidSettingException(SERVER_LISTS, null, "required unless ShardingSphere runs in Cluster mode with a ZooKeeper repository; "
                        + "expected host:port[,host:port...], e.g. 127.0.0.1:2181");
            }
        }
        String namespace = configured.namespace() != null ? configured.namespace()
                : checkNamespace(zookeeperMode.map(ClusterRegistry::namespace).filter(each -> !each.isBlank()).orElse(DEFAULT_NAMESPACE));
        String digest = configured.digest() != null ? configured.digest()
                : zookeeperMode.map(each -> each.props() == null ? null : each.props().getProperty(MODE_DIGEST)).map(ZooKeeperLeaseProps::checkDigest).orElse(null);
        int connectionTimeout = (int) Math.max(200, Math.min(MAX_CONNECTION_TIMEOUT_MILLIS, acquireTimeoutMillis));
        return new ZooKeeperStoreSettings(servers, namespace, digest, connectionTimeout);
    }

    private static String checkNamespace(final String namespace) {
        if (!NAMESPACE_NAME.matcher(namespace).matches() || ".".equals(namespace) || "..".equals(namespace)) {
            throw new InvalidSettingException(NAMESPACE, namespace, "expected 1 to 128 letters, digits, '_', '-' or '.' (one ZooKeeper node name)");
        }
        return namespace;
    }

    private static String checkDigest(final String digest) {
        int colon = digest.indexOf(':');
        if (colon <= 0 || colon == digest.length() - 1) {
            // Never echo a password back: name the shape only.
            throw new InvalidSettingException(DIGEST, "(hidden)", "expected user:password with a non-empty user and password");
        }
        return digest;
    }

    /** Trims, validates each host:port and sorts, so that equal ensembles give equal lease scopes. */
    static String normalizeServers(final String servers, final String prop) {
        String[] entries = servers.split(",");
        for (int i = 0; i < entries.length; i++) {
            String entry = entries[i].trim();
            int colon = entry.lastIndexOf(':');
            if (colon <= 0 || !SERVER.matcher(entry.substring(0, colon)).matches()) {
                throw new InvalidSettingException(prop, servers, "expected host:port[,host:port...]; '" + entry + "' is not host:port");
            }
            int port;
            try {
                port = Integer.parseInt(entry.substring(colon + 1));
            } catch (final NumberFormatException ex) {
                throw new InvalidSettingException(prop, servers, "'" + entry + "' has no port number from 1 to 65535");
            }
            if (port < 1 || port > 65535) {
                throw new InvalidSettingException(prop, servers, "'" + entry + "' has no port number from 1 to 65535");
            }
            entries[i] = entry;
        }
        return Arrays.stream(entries).sorted().collect(Collectors.joining(","));
    }
}
