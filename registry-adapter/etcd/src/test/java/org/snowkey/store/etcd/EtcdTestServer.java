package org.snowkey.store.etcd;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real etcd server for tests: {@code /usr/bin/etcd} (Debian's {@code etcd-server}; another binary through the
 * {@code SNOWKEY_ETCD} environment variable) on free loopback ports with a temporary data directory. {@link #start()}
 * returns once the server answers a range request (polled, never a fixed sleep); {@link #stop()} kills it and keeps
 * its data, so {@link #start()} brings it back as it was. Without the binary, tests skip with the reason, except
 * under {@code CI=true}, where they fail ({@code .ci/run} installs the package).
 */
public final class EtcdTestServer implements AutoCloseable {

    private static final long START_TIMEOUT_MILLIS = 30_000L;

    private final Path binary;

    private final Path dataDir;

    private final int clientPort;

    private final int peerPort;

    private Process process;

    /** With TLS: the server's certificate, key and the CA its clients must present certificates of; null for plain HTTP. */
    private final List<Path> tls;

    /** Set once authentication is on: readiness is then probed as root. */
    private volatile String rootPassword;

    private EtcdTestServer(final Path binary, final List<Path> tls) throws IOException {
        this.binary = binary;
        this.tls = tls;
        this.dataDir = Files.createTempDirectory("snowkey-etcd");
        this.clientPort = freePort();
        this.peerPort = freePort();
    }

    /** Starts a new server, or skips the test (fails under CI=true) when there is no etcd binary. */
    public static EtcdTestServer startNew() {
        return startNew(null);
    }

    /**
     * Starts a new server serving https only, with a client certificate required ({@code --client-cert-auth}).
     *
     * @param clientCertFile a client certificate it accepts, with its key: the readiness probe's
     */
    public static EtcdTestServer startWithTls(final Path certFile, final Path keyFile, final Path caFile, final Path clientCertFile, final Path clientKeyFile) {
        EtcdTestServer server = startNew(List.of(certFile, keyFile, caFile));
        server.tlsProbe = new EtcdStoreSettings(List.of(server.endpoint()), "probe", null, null, caFile, clientCertFile, clientKeyFile, 1_000);
        try {
            server.start();
        } catch (final IOException ex) {
            throw new IllegalStateException("cannot start etcd: " + ex, ex);
        }
        return server;
    }

    private static EtcdTestServer startNew(final List<Path> tls) {
        Path binary = Path.of(System.getenv().getOrDefault("SNOWKEY_ETCD", "/usr/bin/etcd"));
        if (!Files.isExecutable(binary)) {
            String reason = "no etcd binary at " + binary + " (install Debian's etcd-server, or point SNOWKEY_ETCD at an etcd 3.4+ binary)";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail("CI=true and " + reason);
            }
            Assumptions.abort(reason);
        }
        try {
            EtcdTestServer server = new EtcdTestServer(binary, tls);
            if (tls == null) {
                server.start();
            }
            return server;
        } catch (final IOException ex) {
            throw new IllegalStateException("cannot start etcd: " + ex, ex);
        }
    }

    private volatile RuntimeException lastProbeFailure;

    /** The client settings the readiness probe of a TLS server uses. */
    private volatile EtcdStoreSettings tlsProbe;

    public URI endpoint() {
        return URI.create((tls == null ? "http" : "https") + "://127.0.0.1:" + clientPort);
    }

    /** Plain settings of a client of this server. */
    public EtcdStoreSettings settings(final String namespace) {
        return EtcdStoreSettings.plain(List.of(endpoint()), namespace, 2_000);
    }

    /** Starts the server (again, after {@link #stop()}) and waits until it answers. */
    public synchronized void start() throws IOException {
        if (process != null && process.isAlive()) {
            return;
        }
        String peer = "http://127.0.0.1:" + peerPort;
        File log = dataDir.resolve("etcd.log").toFile();
        List<String> command = new java.util.ArrayList<>(List.of(binary.toString(), "--name", "snowkey-test", "--data-dir", dataDir.resolve("data").toString(),
                "--listen-client-urls", endpoint().toString(), "--advertise-client-urls", endpoint().toString(),
                "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer, "--initial-cluster", "snowkey-test=" + peer, "--log-level", "warn"));
        if (tls != null) {
            command.addAll(List.of("--cert-file", tls.get(0).toString(), "--key-file", tls.get(1).toString(), "--client-cert-auth",
                    "--trusted-ca-file", tls.get(2).toString()));
        }
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
        try {
            awaitReady(log.toPath());
        } catch (final IOException | RuntimeException ex) {
            // A server that never became ready must not outlive the test that gave up on it.
            stop();
            throw ex;
        }
    }

    private void awaitReady(final Path log) throws IOException {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofMillis(500)).build();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MILLIS);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("etcd exited with " + process.exitValue() + " at start-up: " + tail(log));
            }
            try {
                if (answersARead(http)) {
                    return;
                }
            } catch (final IOException ex) {
                // Not listening yet.
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for etcd", ex);
            }
            try {
                Thread.sleep(50);
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for etcd", ex);
            }
        }
        throw new IllegalStateException("etcd did not answer within " + START_TIMEOUT_MILLIS + " ms" + (lastProbeFailure == null ? "" : " (" + lastProbeFailure + ")")
                + ": " + tail(log));
    }

    /** A linearizable read (it needs a leader) answered; as root once authentication is on, through SnowKey's client with TLS. */
    private boolean answersARead(final HttpClient http) throws IOException, InterruptedException {
        if (tls != null) {
            try (EtcdClient client = new EtcdClient(tlsProbe)) {
                client.get("/");
                return true;
            } catch (final RuntimeException ex) {
                lastProbeFailure = ex;
                return false;
            }
        }
        HttpRequest.Builder probe = HttpRequest.newBuilder(endpoint().resolve("/v3/kv/range")).timeout(Duration.ofMillis(1_000))
                .POST(HttpRequest.BodyPublishers.ofString("{\"key\":\"AA==\"}"));
        String password = rootPassword;
        if (password != null) {
            HttpResponse<String> auth = http.send(HttpRequest.newBuilder(endpoint().resolve("/v3/auth/authenticate")).timeout(Duration.ofMillis(1_000))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"root\",\"password\":\"" + password + "\"}")).build(), HttpResponse.BodyHandlers.ofString());
            if (auth.statusCode() != 200) {
                return false;
            }
            java.util.regex.Matcher token = java.util.regex.Pattern.compile("\"token\":\"([^\"]+)\"").matcher(auth.body());
            if (!token.find()) {
                return false;
            }
            probe.header("Authorization", token.group(1));
        }
        return http.send(probe.build(), HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
    }

    /** Kills the server (SIGKILL: nothing is flushed that a crash would not keep) and waits until it is gone; its data stays. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    /** Creates user root with the given password, gives it the root role and turns authentication on. */
    public void enableAuthentication(final String rootPassword) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (String[] call : List.of(new String[] {"/v3/auth/user/add", "{\"name\":\"root\",\"password\":\"" + rootPassword + "\"}"},
                new String[] {"/v3/auth/role/add", "{\"name\":\"root\"}"}, new String[] {"/v3/auth/user/grant", "{\"user\":\"root\",\"role\":\"root\"}"},
                new String[] {"/v3/auth/enable", "{}"})) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(endpoint().resolve(call[0])).POST(HttpRequest.BodyPublishers.ofString(call[1])).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(call[0] + " answered " + response.statusCode() + " " + response.body());
            }
        }
        this.rootPassword = rootPassword;
    }

    /**
     * Makes etcd forget every token of user root: its password is "changed" to the one it has, which invalidates the
     * user's tokens (as a token TTL running out would), without waiting for anything.
     */
    public void invalidateRootTokens() throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<String> auth = http.send(HttpRequest.newBuilder(endpoint().resolve("/v3/auth/authenticate"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"root\",\"password\":\"" + rootPassword + "\"}")).build(), HttpResponse.BodyHandlers.ofString());
        java.util.regex.Matcher token = java.util.regex.Pattern.compile("\"token\":\"([^\"]+)\"").matcher(auth.body());
        if (!token.find()) {
            throw new IllegalStateException("no token for root: " + auth.body());
        }
        HttpResponse<String> changed = http.send(HttpRequest.newBuilder(endpoint().resolve("/v3/auth/user/changepw")).header("Authorization", token.group(1))
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"root\",\"password\":\"" + rootPassword + "\"}")).build(), HttpResponse.BodyHandlers.ofString());
        if (changed.statusCode() != 200) {
            throw new IllegalStateException("/v3/auth/user/changepw answered " + changed.statusCode() + " " + changed.body());
        }
    }

    @Override
    public void close() {
        stop();
        try (Stream<Path> files = Files.walk(dataDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(each -> each.toFile().delete());
        } catch (final IOException ex) {
            // A temporary directory left behind is no test failure.
        }
    }

    private static String tail(final Path log) throws IOException {
        String text = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "(no log)";
        return text.length() > 2_000 ? text.substring(text.length() - 2_000) : text;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /**
     * One server for every test of a class, started before the first and killed after the last:
     * {@code @RegisterExtension static final EtcdTestServer.PerClass ETCD = new EtcdTestServer.PerClass();}, then
     * {@code server}. Without the binary the class skips (fails under CI=true), as {@link #startNew()} does.
     */
    public static final class PerClass implements BeforeAllCallback, AfterAllCallback {

        private EtcdTestServer server;

        public EtcdTestServer server() {
            return server;
        }

        @Override
        public void beforeAll(final ExtensionContext context) {
            server = startNew();
        }

        @Override
        public void afterAll(final ExtensionContext context) {
            if (server != null) {
                server.close();
                server = null;
            }
        }
    }
}
