package org.snowkey.fault;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP proxy in front of the database that can be cut: a partition between the generators and their
 * registry. While cut, open connections are reset and new ones are accepted but never answered (a silent network,
 * the nastier case: the driver must time out); on restore the silent ones are closed and traffic flows again.
 */
public final class TcpProxy implements AutoCloseable {

    private final ServerSocket server;

    private final int targetPort;

    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    private volatile boolean cut;

    private volatile boolean closed;

    public TcpProxy(final int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "tcp-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    public void cut() {
        cut = true;
        closeAll();
    }

    public void restore() {
        cut = false;
        closeAll();
    }

    private void closeAll() {
        for (Socket each : sockets) {
            try {
                each.close();
            } catch (final IOException ignored) {
                // Closing anyway.
            }
        }
        sockets.clear();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = server.accept();
                sockets.add(client);
                if (cut) {
                    continue;
                }
                Socket upstream = new Socket();
                upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 2_000);
                sockets.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            } catch (final IOException ex) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void pump(final Socket from, final Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16_384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (final IOException ignored) {
                // Connection ended or cut.
            } finally {
                try {
                    from.close();
                    to.close();
                } catch (final IOException ignored) {
                    // Closing anyway.
                }
            }
        }, "tcp-proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        closeAll();
    }
}
