package org.snowkey.fault;

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
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One etcd server ({@code /usr/bin/etcd}, or the binary named by {@code -Dsnowkey.fault.etcd} or the
 * {@code SNOWKEY_ETCD} environment variable) on free loopback ports with its data directory in the run's directory.
 * It can be killed (SIGKILL, data directory kept) and started again from the same data: a single server, so every
 * restart is a full outage of the store. Readiness is a linearizable read answered through the v3 JSON gateway (it
 * needs an elected leader), polled, never a fixed sleep.
 */
public final class EtcdServer implements AutoCloseable {

    private static final String DEFAULT_BINARY = "/usr/bin/etcd";

    private final Path binary;

    private final Path dir;

    private final Processes processes;

    private final int clientPort;

    private final int peerPort;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofMillis(500)).build();

    private Process process;

    private int starts;

    public EtcdServer(final Path binary, final Path dir, final Processes processes) throws IOException {
        this.binary = binary;
        this.dir = dir;
        this.processes = processes;
        int[] ports = freePorts(2);
        this.clientPort = ports[0];
        this.peerPort = ports[1];
        Files.createDirectories(dir);
    }

    /** The etcd binary to run, or null when there is none (the etcd scenarios are then skipped, or fail under CI=true). */
    public static Path findBinary() {
        String configured = System.getProperty("snowkey.fault.etcd", System.getenv().getOrDefault("SNOWKEY_ETCD", DEFAULT_BINARY));
        Path binary = Path.of(configured.trim());
        return Files.isExecutable(binary) ? binary : null;
    }

    /** Why the etcd scenarios cannot run here. */
    public static String missingBinaryMessage() {
        return "no etcd binary at " + System.getProperty("snowkey.fault.etcd", System.getenv().getOrDefault("SNOWKEY_ETCD", DEFAULT_BINARY))
                + " (install Debian's etcd-server: apt-get install -y etcd-server, or point -Dsnowkey.fault.etcd at an etcd 3.4+ binary)";
    }

    /** The client URL the generators are given. */
    public String endpoint() {
        return "http://127.0.0.1:" + clientPort;
    }

    /** Starts the server (again, on the data it left) and waits until it answers a linearizable read. */
    public void start(final long timeoutMillis) throws IOException, InterruptedException {
        if (process != null && process.isAlive()) {
            return;
        }
        starts++;
        String peer = "http://127.0.0.1:" + peerPort;
        Path log = dir.resolve("etcd.log");
        ProcessBuilder builder = new ProcessBuilder(binary.toString(), "--name", "fault-etcd", "--data-dir", dir.resolve("data").toString(),
                "--listen-client-urls", endpoint(), "--advertise-client-urls", endpoint(), "--listen-peer-urls", peer,
                "--initial-advertise-peer-urls", peer, "--initial-cluster", "fault-etcd=" + peer, "--log-level", "warn");
        builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        process = processes.start(builder);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("etcd exited with " + process.exitValue() + " at start " + starts + ": " + tail(log));
            }
            if (answers()) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("etcd did not answer within " + timeoutMillis + " ms of start " + starts + ": " + tail(log));
    }

    /** SIGKILL: the server dies at once (nothing flushed that a crash would not keep); its data directory stays. */
    public void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(20, TimeUnit.SECONDS);
            process = null;
        }
    }

    /** How many times the server was started, the first start included. */
    public int starts() {
        return starts;
    }

    private boolean answers() throws InterruptedException {
        // Key "\0" in base64; a range request is served only once the server has a leader.
        HttpRequest probe = HttpRequest.newBuilder(URI.create(endpoint() + "/v3/kv/range")).timeout(Duration.ofMillis(1_000))
                .POST(HttpRequest.BodyPublishers.ofString("{\"key\":\"AA==\"}")).build();
        try {
            return http.send(probe, HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
        } catch (final IOException notListeningYet) {
            return false;
        }
    }

    private static String tail(final Path log) throws IOException {
        String text = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "(no log)";
        return text.length() > 2_000 ? text.substring(text.length() - 2_000) : text;
    }

    private static int[] freePorts(final int count) throws IOException {
        int[] ports = new int[count];
        List<ServerSocket> sockets = new java.util.ArrayList<>();
        try {
            // All open at once, so that the ports differ.
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(socket);
                ports[i] = socket.getLocalPort();
            }
        } finally {
            for (ServerSocket each : sockets) {
                each.close();
            }
        }
        return ports;
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
