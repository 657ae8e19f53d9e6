package org.snowkey.store.etcd;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Where and how an etcd client of SnowKey (the lease store's, the segment allocator's) connects.
 *
 * @param endpoints the client URLs ({@code http://host:port} or {@code https://host:port}), tried in this order
 * @param namespace SnowKey's keys (leases, segments) live under {@code <namespace>/snowkey/} ({@link #root()})
 * @param user the etcd user, or null when etcd runs without authentication
 * @param password the user's password, or null with no user; never shown
 * @param caFile PEM certificates trusted for the servers' certificates, or null for the JDK's default trust store
 * @param certFile PEM client certificate (chain), or null for no client certificate
 * @param keyFile PEM PKCS#8 private key of the client certificate, or null
 * @param requestTimeoutMillis how long one request (connection included) may take before etcd counts as unreachable
 */
public record EtcdStoreSettings(List<URI> endpoints, String namespace, String user, String password, Path caFile, Path certFile, Path keyFile,
                                long requestTimeoutMillis) {

    public EtcdStoreSettings {
        endpoints = List.copyOf(endpoints);
    }

    /** Plain-HTTP settings without authentication (tests, local servers). */
    public static EtcdStoreSettings plain(final List<URI> endpoints, final String namespace, final long requestTimeoutMillis) {
        return new EtcdStoreSettings(endpoints, namespace, null, null, null, null, null, requestTimeoutMillis);
    }

    /**
     * The prefix of every key SnowKey writes: {@code <namespace>/snowkey}, without a leading slash. ShardingSphere's etcd
     * repository prefixes its own keys with the namespace's bytes ({@code <namespace>/metadata/...}), so in Cluster mode
     * one etcd role granted on {@code <namespace>/} covers both, as one ZooKeeper ACL does on {@code /<namespace>}.
     */
    public String root() {
        return namespace + "/snowkey";
    }

    /** The endpoints as one text, for messages and scopes. */
    public String endpointText() {
        return endpoints.stream().map(URI::toString).collect(Collectors.joining(","));
    }

    /** Whether the endpoints use TLS. */
    public boolean tls() {
        return "https".equals(endpoints.get(0).getScheme());
    }

    /** Never prints the password; the file paths are not secret. */
    @Override
    public String toString() {
        return "EtcdStoreSettings[" + endpointText() + " " + root() + (user == null ? "" : ", user " + user) + (caFile == null ? "" : ", ca " + caFile)
                + (certFile == null ? "" : ", cert " + certFile) + ", request timeout " + requestTimeoutMillis + " ms]";
    }
}
