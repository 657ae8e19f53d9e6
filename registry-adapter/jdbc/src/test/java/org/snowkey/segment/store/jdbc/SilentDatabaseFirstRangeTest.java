package org.snowkey.segment.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.keygen.segment.runtime.SegmentPlanner;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;

/**
 * A database that accepts connections and never answers, from the first INSERT on: the INSERT fails within
 * {@code segment-fetch-timeout-milliseconds} naming what the pool saw, because a connection attempt is bounded by half
 * of it. With the pool's own 5 s bound the INSERT gave up at 3 s knowing nothing ("the allocator has not answered yet").
 */
class SilentDatabaseFirstRangeTest {

    private final List<Socket> accepted = new ArrayList<>();

    @AfterEach
    void stop() throws IOException {
        SegmentRuntime.get().closeAll();
        for (Socket each : accepted) {
            each.close();
        }
    }

    @Test
    void theFirstInsertFailsWithThePoolsErrorWithinTheFetchTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                while (!silent.isClosed()) {
                    try {
                        Socket socket = silent.accept();
                        synchronized (accepted) {
                            accepted.add(socket);
                        }
                    } catch (final IOException ex) {
                        return;
                    }
                }
            }, "silent-database");
            acceptor.setDaemon(true);
            acceptor.start();
            Properties props = new Properties();
            props.setProperty("segment-allocator", "jdbc");
            props.setProperty("jdbc-url", "jdbc:postgresql://127.0.0.1:" + silent.getLocalPort() + "/silent");
            props.setProperty("jdbc-username", "postgres");
            SegmentPlanner planner = SegmentPlanner.get();
            var scope = SegmentRuntime.get().join(planner.plan(planner.parse(props), Optional.empty()), new Object());
            RangeUnavailableException failure = assertThrows(RangeUnavailableException.class, () -> scope.sequence("db.t_order").nextId());
            assertTrue(failure.getMessage().contains("segment-fetch-timeout-milliseconds = 3000 ms"), failure.getMessage());
            assertFalse(failure.getMessage().contains("has not answered yet"), "the cause is known within the fetch timeout: " + failure.getMessage());
            assertTrue(failure.getMessage().contains("127.0.0.1:" + silent.getLocalPort()), "names the database: " + failure.getMessage());
        }
    }
}
