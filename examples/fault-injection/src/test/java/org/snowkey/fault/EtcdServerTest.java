package org.snowkey.fault;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The suite's etcd server handling, which the etcd scenario's restarts rely on: a started server answers, a killed
 * one does not, and a restarted one answers with the data written before the kill (same data directory).
 */
class EtcdServerTest {

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void aKilledServerStartsAgainOnItsData() throws Exception {
        Path binary = EtcdServer.findBinary();
        if (binary == null) {
            assertFalse("true".equalsIgnoreCase(System.getenv("CI")), "CI=true and " + EtcdServer.missingBinaryMessage());
            Assumptions.abort(EtcdServer.missingBinaryMessage());
        }
        Path dir = Files.createTempDirectory("snowkey-fault-etcd");
        try (Processes processes = new Processes(); EtcdServer server = new EtcdServer(binary, dir, processes)) {
            server.start(60_000);
            // Key "fault" = ZmF1bHQ=, value "kept" = a2VwdA==.
            assertTrue(post(server, "/v3/kv/put", "{\"key\":\"ZmF1bHQ=\",\"value\":\"a2VwdA==\"}").contains("\"revision\""), "the put was answered");
            server.kill();
            assertThrowsIo(server);
            server.start(60_000);
            assertTrue(post(server, "/v3/kv/range", "{\"key\":\"ZmF1bHQ=\"}").contains("a2VwdA=="), "the value written before the SIGKILL is still there");
            assertTrue(server.starts() == 2, "started twice");
        }
    }

    private void assertThrowsIo(final EtcdServer server) throws InterruptedException {
        try {
            post(server, "/v3/kv/range", "{\"key\":\"ZmF1bHQ=\"}");
        } catch (final IOException expected) {
            return;
        }
        throw new AssertionError("a killed etcd server still answered");
    }

    private String post(final EtcdServer server, final String path, final String body) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(server.endpoint() + path)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(response.statusCode() == 200, path + " answered " + response.statusCode() + " " + response.body());
        return response.body();
    }
}
