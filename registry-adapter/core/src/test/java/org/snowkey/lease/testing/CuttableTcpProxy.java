package org.snowkey.lease.testing;

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
 * Test fixture: a loopback TCP relay in front of a real database server whose link can be cut and restored,
 * to play a database that becomes unreachable while a lease is held without stopping the machine's shared
 * server. Cutting closes every relayed connection and refuses new ones (accepts and closes them at once), which
 * is what a client sees when the server goes down. {@link #freeze()} plays a partition instead: silence.
 */
public final class CuttableTcpProxy implements AutoCloseable {

    private final ServerSocket listener;

    private final int targetPort;

    private final List<Socket> open = new CopyOnWriteArrayList<>();

    private volatile boolean cut;

    private volatile boolean frozen;

    private volatile boolean closed;

    public CuttableTcpProxy(final int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "test-proxy-accept-" + targetPort);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Drops every relayed connection and refuses new ones until {@link #restore()}. */
    public void cut() {
        cut = true;
        open.forEach(CuttableTcpProxy::closeQuietly);
        open.clear();
    }

    public void restore() {
        cut = false;
        frozen = false;
    }

    /**
     * Stops relaying without closing anything: bytes are held back in both directions and new connections hang,
     * like a database behind a network partition or a frozen VM. Only timeouts can end a wait then.
     */
    public void freeze() {
        frozen = true;
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (final IOException ex) {
                return;
            }
            if (cut) {
                closeQuietly(client);
                continue;
            }
            try {
                Socket server = new Socket();
                server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 2_000);
                open.add(client);
                open.add(server);
                pump(client, server);
                pump(server, client);
            } catch (final IOException ex) {
                closeQuietly(client);
            }
        }
    }

    private void pump(final Socket from, final Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    while (frozen && !closed) {
                        Thread.sleep(10);
                    }
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (final IOException | InterruptedException ignored) {
                // The other side or cut() closed the link.
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "test-proxy-pump-" + targetPort);
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(final Socket socket) {
        try {
            socket.close();
        } catch (final IOException ignored) {
            // Already closed.
        }
    }

    @Override
    public void close() {
        closed = true;
        cut();
        try {
            listener.close();
        } catch (final IOException ignored) {
            // Already closed.
        }
    }
}
