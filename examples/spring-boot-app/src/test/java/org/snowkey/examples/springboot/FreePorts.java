package org.snowkey.examples.springboot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** A port that was free a moment ago, for the embedded ZooKeeper of a test. */
final class FreePorts {

    private FreePorts() {
    }

    static int next() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (final IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
