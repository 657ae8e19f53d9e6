package org.snowkey.store.etcd;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;

/**
 * A TCP relay in front of a real etcd that passes each request on and, as soon as etcd starts to answer, resets the
 * client's connection instead of passing the answer back: a request etcd handled (a write applied) whose answer was
 * lost on the way, as a connection reset after sending is.
 */
final class AnswerDroppingProxy implements AutoCloseable {

    private final ServerSocket listener;

    private final URI target;

    AnswerDroppingProxy(final URI target) {
        this.target = target;
        try {
            listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (final IOException ex) {
            throw new UncheckedIOException(ex);
        }
        Thread acceptor = new Thread(this::relay, "answer-dropping-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + listener.getLocalPort());
    }

    private void relay() {
        while (!listener.isClosed()) {
            try (Socket client = listener.accept(); Socket upstream = new Socket(target.getHost(), target.getPort())) {
                Thread requests = new Thread(() -> {
                    try {
                        client.getInputStream().transferTo(upstream.getOutputStream());
                    } catch (final IOException ignored) {
                        // The connection was reset below.
                    }
                }, "answer-dropping-proxy-requests");
                requests.setDaemon(true);
                requests.start();
                if (upstream.getInputStream().read() >= 0) {
                    // etcd has handled the request: close with a reset, the answer never reaches the client.
                    client.setSoLinger(true, 0);
                }
            } catch (final IOException ex) {
                // The listener was closed, or one relayed connection failed: the client sees that as a lost answer too.
            }
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
