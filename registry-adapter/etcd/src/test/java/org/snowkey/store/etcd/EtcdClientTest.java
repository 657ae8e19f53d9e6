package org.snowkey.store.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.store.StoreUnavailableException;

/** The HTTP client against a real etcd: transactions, ordered ranges, endpoint failover, authentication. */
class EtcdClientTest {

    private static final String ROOT_PASSWORD = "Root-pw-77";

    private static byte[] bytes(final String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Something other than etcd answering 200 with JSON must never read as "no such key" (a free number, an unused counter). */
    @Test
    void anAnswerWithoutEtcdsHeaderIsNotReadAsAbsent() throws Exception {
        HttpServer notEtcd = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        notEtcd.createContext("/", exchange -> {
            byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        notEtcd.start();
        try (EtcdClient client = new EtcdClient(EtcdStoreSettings.plain(List.of(URI.create("http://127.0.0.1:" + notEtcd.getAddress().getPort())), "ns", 5_000))) {
            StoreUnavailableException failure = assertThrows(StoreUnavailableException.class, () -> client.get("ns/snowkey/default/workers/1"));
            assertTrue(failure.getMessage().contains("without etcd's header"), failure.getMessage());
            assertThrows(StoreUnavailableException.class, () -> client.range("ns/snowkey/default/workers/", 0, false, false));
        } finally {
            notEtcd.stop(0);
        }
    }

    @Test
    @Timeout(60)
    void transactionsCompareModRevisionsAndAbsence() {
        try (EtcdTestServer server = EtcdTestServer.startNew(); EtcdClient client = new EtcdClient(server.settings("t"))) {
            EtcdTxn.Result created = client.txn(new EtcdTxn().ifAbsent("/k").put("/k", bytes("one")));
            assertTrue(created.succeeded());
            EtcdKeyValue read = client.get("/k").orElseThrow();
            assertEquals(created.revision(), read.modRevision());
            assertEquals("one", read.valueText());
            EtcdTxn.Result again = client.txn(new EtcdTxn().ifAbsent("/k").put("/k", bytes("two")).otherwiseGet("/k"));
            assertFalse(again.succeeded());
            assertEquals(List.of("one"), again.read().stream().map(EtcdKeyValue::valueText).toList());
            assertTrue(client.txn(new EtcdTxn().ifModRevision("/k", read.modRevision()).put("/k", bytes("two"))).succeeded());
            assertFalse(client.txn(new EtcdTxn().ifModRevision("/k", read.modRevision()).put("/k", bytes("three"))).succeeded(), "a stale revision");
            assertEquals("two", client.get("/k").orElseThrow().valueText());
            assertFalse(client.txn(new EtcdTxn().ifModRevision("/absent", 1).put("/absent", bytes("x"))).succeeded());
            assertTrue(client.get("/absent").isEmpty());
            // Keys in order, the highest first with a limit; a prefix holds nothing of its sibling "/p0".
            for (String each : List.of("/p/02", "/p/10", "/p/01", "/p0")) {
                client.txn(new EtcdTxn().put(each, bytes(each)));
            }
            assertEquals(List.of("/p/01", "/p/02", "/p/10"), client.range("/p/", 0, false, true).stream().map(EtcdKeyValue::key).toList());
            assertEquals(List.of("/p/10", "/p/02"), client.range("/p/", 2, true, false).stream().map(EtcdKeyValue::key).toList());
        }
    }

    @Test
    @Timeout(60)
    void aDeadEndpointIsSkippedAndAnUnreachableClusterNamesEveryEndpoint() {
        try (EtcdTestServer server = EtcdTestServer.startNew()) {
            URI dead = URI.create("http://127.0.0.1:1");
            try (EtcdClient client = new EtcdClient(EtcdStoreSettings.plain(List.of(dead, server.endpoint()), "t", 2_000))) {
                assertTrue(client.txn(new EtcdTxn().ifAbsent("/f").put("/f", bytes("v"))).succeeded());
                assertEquals("v", client.get("/f").orElseThrow().valueText());
            }
            server.stop();
            try (EtcdClient client = new EtcdClient(EtcdStoreSettings.plain(List.of(dead, server.endpoint()), "t", 1_000))) {
                StoreUnavailableException down = assertThrows(StoreUnavailableException.class, () -> client.get("/f"));
                assertTrue(down.getMessage().contains(dead.toString()) && down.getMessage().contains(server.endpoint().toString()), down.getMessage());
            }
        }
    }

    @Test
    @Timeout(90)
    void aUserAuthenticatesAgainWhenEtcdForgotItsTokenAndAWrongPasswordIsNamedButNeverShown() throws Exception {
        try (EtcdTestServer server = EtcdTestServer.startNew()) {
            server.enableAuthentication(ROOT_PASSWORD);
            EtcdStoreSettings plain = server.settings("t");
            EtcdStoreSettings root = new EtcdStoreSettings(plain.endpoints(), "t", "root", ROOT_PASSWORD, null, null, null, 2_000);
            try (EtcdClient client = new EtcdClient(root)) {
                assertTrue(client.txn(new EtcdTxn().ifAbsent("/a").put("/a", bytes("v"))).succeeded());
                // A restart keeps the token (etcd replays the authentication from its log); the client carries on.
                server.stop();
                server.start();
                assertEquals("v", client.get("/a").orElseThrow().valueText());
                // A token etcd forgot (its TTL ran out, the password changed) is refused once, then replaced.
                server.invalidateRootTokens();
                assertTrue(client.txn(new EtcdTxn().ifModRevision("/a", client.get("/a").orElseThrow().modRevision()).put("/a", bytes("w"))).succeeded());
                assertEquals("w", client.get("/a").orElseThrow().valueText());
                assertFalse(client.toString().contains(ROOT_PASSWORD), client.toString());
            }
            try (EtcdClient anonymous = new EtcdClient(plain)) {
                IllegalStateException refused = assertThrows(IllegalStateException.class, () -> anonymous.get("/a"));
                assertTrue(refused.getMessage().contains(EtcdStoreProps.USER), refused.getMessage());
            }
            String wrong = "Wrong-pw-12";
            try (EtcdClient mistaken = new EtcdClient(new EtcdStoreSettings(plain.endpoints(), "t", "root", wrong, null, null, null, 2_000))) {
                IllegalStateException refused = assertThrows(IllegalStateException.class, () -> mistaken.get("/a"));
                assertFalse(refused instanceof StoreUnavailableException, "a wrong password does not pass with time: " + refused);
                assertTrue(refused.getMessage().contains("root") && refused.getMessage().contains(EtcdStoreProps.PASSWORD), refused.getMessage());
                assertFalse(refused.getMessage().contains(wrong), refused.getMessage());
            }
        }
    }

    @Test
    @Timeout(60)
    void aWriteWhoseAnswerWasLostIsNeverSentToTheNextEndpointButAReadIs() throws Exception {
        try (EtcdTestServer server = EtcdTestServer.startNew(); AnswerDroppingProxy lossy = new AnswerDroppingProxy(server.endpoint());
             EtcdClient client = new EtcdClient(EtcdStoreSettings.plain(List.of(lossy.endpoint(), server.endpoint()), "t", 2_000))) {
            // etcd applies the claim; sent again to the next endpoint it would come back "taken", and its caller would
            // take its own claim for another holder's.
            StoreUnavailableException lost = assertThrows(StoreUnavailableException.class, () -> client.txn(new EtcdTxn().ifAbsent("/w").put("/w", bytes("once"))));
            assertTrue(lost.getMessage().contains("may have been applied"), lost.getMessage());
            assertEquals("once", client.get("/w").orElseThrow().valueText());
            try (EtcdClient reader = new EtcdClient(EtcdStoreSettings.plain(List.of(lossy.endpoint(), server.endpoint()), "t", 2_000))) {
                assertEquals("once", reader.get("/w").orElseThrow().valueText());
            }
        }
    }

    @Test
    @Timeout(120)
    void aPoolOfTheLargestSizeIsListedWholeOrNotAtAll() {
        // 8,192 records (the largest pool) of 1 KB each: about 8 MB in one answer, above gRPC's default 4 MB message.
        int count = 8_192;
        byte[] value = bytes("x".repeat(1_000));
        try (EtcdTestServer server = EtcdTestServer.startNew(); EtcdClient client = new EtcdClient(server.settings("t"))) {
            for (int batch = 0; batch < count / 128; batch++) {
                EtcdTxn txn = new EtcdTxn();
                for (int i = 0; i < 128; i++) {
                    txn.put("/pool/workers/" + (batch * 128 + i), value);
                }
                assertTrue(client.txn(txn).succeeded());
            }
            List<EtcdKeyValue> listed;
            try {
                listed = client.range("/pool/workers/", 0, false, false);
            } catch (final StoreUnavailableException ex) {
                // Too large for the gateway is an error, never a shorter list that would make held numbers look free.
                return;
            }
            assertEquals(count, listed.size());
            assertTrue(listed.stream().allMatch(each -> each.value().length == value.length));
        }
    }
}
