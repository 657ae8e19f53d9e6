package org.snowkey.fault;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Three ZooKeeper servers, each its own JVM ({@code QuorumPeerMain}) with a generated config on loopback ports.
 * Servers can be killed (SIGKILL, data directory kept) and started again. The servers cap sessions at
 * {@link #MAX_SESSION_MILLIS}, whatever a client asks for, so that pausing a client a little longer expires its
 * session while its lease (longer) is still valid.
 */
public final class ZooKeeperEnsemble implements AutoCloseable {

    public static final int SIZE = 3;

    public static final int TICK_MILLIS = 200;

    public static final int MAX_SESSION_MILLIS = 2_000;

    private final Path dir;

    private final Processes processes;

    private final int[] clientPorts = new int[SIZE];

    private final Process[] servers = new Process[SIZE];

    private final int[] starts = new int[SIZE];

    public ZooKeeperEnsemble(final Path dir, final Processes processes) throws IOException {
        this.dir = dir;
        this.processes = processes;
        int[] ports = freePorts(SIZE * 3);
        StringBuilder peers = new StringBuilder();
        for (int i = 0; i < SIZE; i++) {
            clientPorts[i] = ports[i * 3];
            peers.append("server.").append(i + 1).append("=127.0.0.1:").append(ports[i * 3 + 1]).append(':').append(ports[i * 3 + 2]).append('\n');
        }
        for (int i = 0; i < SIZE; i++) {
            Path data = dir.resolve("zk" + (i + 1));
            Files.createDirectories(data);
            Files.writeString(data.resolve("myid"), String.valueOf(i + 1));
            String config = "tickTime=" + TICK_MILLIS + "\ninitLimit=25\nsyncLimit=10\ndataDir=" + data + "\nclientPort=" + clientPorts[i]
                    + "\nclientPortAddress=127.0.0.1\nmaxSessionTimeout=" + MAX_SESSION_MILLIS + "\nminSessionTimeout=" + (2 * TICK_MILLIS)
                    + "\nadmin.enableServer=false\n4lw.commands.whitelist=ruok,srvr,mntr\nstandaloneEnabled=false\nreconfigEnabled=false\n"
                    + "quorumListenOnAllIPs=false\nmaxClientCnxns=0\n" + peers;
            Files.writeString(dir.resolve("zoo" + (i + 1) + ".cfg"), config);
        }
    }

    public void startAll() throws IOException {
        for (int i = 0; i < SIZE; i++) {
            start(i);
        }
    }

    public void start(final int server) throws IOException {
        starts[server]++;
        ProcessBuilder builder = new ProcessBuilder(Processes.javaCommand("-Xmx96m", "-Dzookeeper.jmx.log4j.disable=true",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "org.apache.zookeeper.server.quorum.QuorumPeerMain",
                dir.resolve("zoo" + (server + 1) + ".cfg").toString()));
        Path log = dir.resolve("zk" + (server + 1) + ".log");
        builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        servers[server] = processes.start(builder);
    }

    /** SIGKILL: the server dies at once, its data directory stays. */
    public void kill(final int server) throws InterruptedException {
        Process process = servers[server];
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(20, TimeUnit.SECONDS);
            servers[server] = null;
        }
    }

    public String connectString() {
        StringBuilder result = new StringBuilder();
        for (int port : clientPorts) {
            result.append(result.length() == 0 ? "" : ",").append("127.0.0.1:").append(port);
        }
        return result.toString();
    }

    /** Waits until a majority answers {@code srvr} as leader or follower. */
    public boolean awaitQuorum(final long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < deadline) {
            int serving = 0;
            for (int i = 0; i < SIZE; i++) {
                String answer = fourLetterWord(clientPorts[i], "srvr");
                if (answer.contains("Mode: leader") || answer.contains("Mode: follower")) {
                    serving++;
                }
            }
            if (serving > SIZE / 2) {
                return true;
            }
            Thread.sleep(200);
        }
        return false;
    }

    private static String fourLetterWord(final int port, final String word) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            socket.setSoTimeout(1_000);
            OutputStream out = socket.getOutputStream();
            out.write(word.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (final IOException ex) {
            return "";
        }
    }

    static int[] freePorts(final int count) throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        int[] ports = new int[count];
        try {
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
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
        for (int i = 0; i < SIZE; i++) {
            kill(i);
        }
    }
}
