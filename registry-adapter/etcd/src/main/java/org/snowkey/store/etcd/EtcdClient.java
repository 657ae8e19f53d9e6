package org.snowkey.store.etcd;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import org.snowkey.store.StoreUnavailableException;
import org.snowkey.store.json.JsonNumber;
import org.snowkey.store.json.JsonObject;
import org.snowkey.store.json.JsonObjectWriter;

/**
 * A client of etcd's v3 JSON gateway ({@code POST /v3/kv/range}, {@code /v3/kv/txn}, {@code /v3/auth/authenticate}),
 * which etcd 3.4 and 3.5 serve on their client port, over the JDK's {@link HttpClient}: no gRPC, Netty, protobuf or
 * Guava, so nothing of it can change a library version of the host (registry-adapter/docs/etcd.md, "Why no jetcd").
 * Keys and values travel base64-encoded, 64-bit integers as JSON strings.
 *
 * <p><b>Endpoints.</b> A call goes to the endpoint that answered last and moves on to the next one only when it surely
 * never reached the server (connection refused, connect timeout); any request may move on after a read. A write whose
 * answer is lost (a timeout, a reset after sending) is never sent again here: it may have been applied, and only
 * the caller knows how to tell (the lease protocol's lost-claim adoption, the allocator's gap). It fails as
 * {@link StoreUnavailableException}, and the next call starts at the next endpoint.
 *
 * <p><b>Authentication.</b> With a user, the client asks for a token on first use and sends it with every request; a
 * token etcd refuses (expired, or issued by another member: simple tokens live in one member's memory) is replaced
 * once per call. etcd checks the token before it applies anything, so repeating that call cannot apply a write twice.
 * The password is only ever sent in the authenticate request's body and never appears in a message or toString.
 */
public class EtcdClient implements AutoCloseable {

    /** gRPC status codes etcd's gateway answers with. */
    private static final int INVALID_ARGUMENT = 3;

    private static final int DEADLINE_EXCEEDED = 4;

    private static final int PERMISSION_DENIED = 7;

    private static final int RESOURCE_EXHAUSTED = 8;

    private static final int FAILED_PRECONDITION = 9;

    private static final int UNAVAILABLE = 14;

    private static final int UNAUTHENTICATED = 16;

    /** Stands for "etcd runs without authentication" once a user's authenticate request was answered so. */
    private static final String NO_TOKEN = "";

    private final EtcdStoreSettings settings;

    private final HttpClient http;

    /** The endpoint that answered last: the next call starts there. */
    private final AtomicInteger preferred = new AtomicInteger();

    private final Object authentication = new Object();

    /** The token of the user, null until the first call authenticates. */
    private volatile String token;

    private volatile boolean closed;

    public EtcdClient(final EtcdStoreSettings settings) {
        this.settings = settings;
        HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofMillis(settings.requestTimeoutMillis()));
        if (settings.tls()) {
            builder.sslContext(EtcdTls.context(settings));
        }
        this.http = builder.build();
    }

    public EtcdStoreSettings settings() {
        return settings;
    }

    /** "etcd http://127.0.0.1:2379": the endpoints, never credentials. */
    public String describe() {
        return "etcd " + settings.endpointText();
    }

    /** The key as it stands, or empty when it does not exist. */
    public Optional<EtcdKeyValue> get(final String key) {
        JsonObject answer = post("/v3/kv/range", new JsonObjectWriter().field("key", encode(key)).toString(), true);
        List<EtcdKeyValue> kvs = keyValues(answer);
        return kvs.isEmpty() ? Optional.empty() : Optional.of(kvs.get(0));
    }

    /**
     * The keys starting with {@code prefix}, sorted by key.
     *
     * @param limit at most this many (0: all)
     * @param highestFirst from the highest key down (with a limit: the highest keys)
     * @param keysOnly without their values
     */
    public List<EtcdKeyValue> range(final String prefix, final long limit, final boolean highestFirst, final boolean keysOnly) {
        JsonObjectWriter request = new JsonObjectWriter().field("key", encode(prefix)).field("range_end", encode(prefixEnd(prefix)));
        if (limit > 0) {
            request.field("limit", Long.toString(limit));
        }
        request.field("sort_order", highestFirst ? "DESCEND" : "ASCEND").field("sort_target", "KEY");
        if (keysOnly) {
            request.field("keys_only", true);
        }
        return keyValues(post("/v3/kv/range", request.toString(), true));
    }

    /** Runs a transaction; its answer may be lost after etcd applied it, then this throws {@link StoreUnavailableException}. */
    public EtcdTxn.Result txn(final EtcdTxn txn) {
        JsonObject answer = post("/v3/kv/txn", txn.toJson(), txn.readsOnly());
        List<EtcdKeyValue> read = new ArrayList<>();
        Object responses = answer.get("responses");
        if (responses instanceof List<?> list) {
            for (Object each : list) {
                if (each instanceof JsonObject response && response.get("response_range") instanceof JsonObject range) {
                    read.addAll(keyValues(range));
                }
            }
        }
        return new EtcdTxn.Result(Boolean.TRUE.equals(answer.get("succeeded")), revision(answer), read);
    }

    /**
     * Sends one request and returns etcd's answer; the one place requests leave, so tests break calls here.
     *
     * @param repeatable whether sending it twice is harmless (a read): then any endpoint failure moves on to the next
     * @throws StoreUnavailableException when etcd cannot be reached or answers with a passing condition
     * @throws IllegalStateException when etcd refuses the request for a reason that does not pass with time (a
     *         permission, a wrong password)
     */
    protected JsonObject post(final String path, final String body, final boolean repeatable) {
        boolean renewedToken = false;
        while (true) {
            String tokenUsed = settings.user() == null ? NO_TOKEN : token();
            HttpResponse<String> response = send(path, body, tokenUsed, repeatable);
            if (response.statusCode() == 200) {
                JsonObject answer = parse(path, response.body());
                if (!(answer.get("header") instanceof JsonObject)) {
                    // Every etcd answer carries a header; without one, a missing "kvs" would read as "no such key" (a free
                    // worker id, an unused sequence key) when it is only something else answering on the port.
                    throw new StoreUnavailableException(describe() + " answered " + path + " without etcd's header: is an etcd server (v3) listening there?", null);
                }
                return answer;
            }
            EtcdError error = EtcdError.of(response);
            boolean refusedToken = error.code() == UNAUTHENTICATED || error.code() == INVALID_ARGUMENT && error.message().contains("user name is empty");
            if (refusedToken && settings.user() != null && !renewedToken) {
                renewedToken = true;
                forgetToken(tokenUsed);
                continue;
            }
            throw failure(path, error);
        }
    }

    private String token() {
        String current = token;
        if (current != null) {
            return current;
        }
        synchronized (authentication) {
            if (token == null) {
                token = authenticate();
            }
            return token;
        }
    }

    private void forgetToken(final String refused) {
        synchronized (authentication) {
            if (refused.equals(token)) {
                token = null;
            }
        }
    }

    private String authenticate() {
        String body = new JsonObjectWriter().field("name", settings.user()).field("password", settings.password()).toString();
        HttpResponse<String> response = send("/v3/auth/authenticate", body, NO_TOKEN, true);
        if (response.statusCode() == 200) {
            Object issued = parse("/v3/auth/authenticate", response.body()).get("token");
            if (issued instanceof String text && !text.isEmpty()) {
                return text;
            }
            throw new StoreUnavailableException(describe() + " answered the authentication of user '" + settings.user() + "' without a token", null);
        }
        EtcdError error = EtcdError.of(response);
        if (error.code() == FAILED_PRECONDITION && error.message().contains("authentication is not enabled")) {
            // The user and password are not needed yet; should etcd enable authentication later, its refusal brings us back here.
            return NO_TOKEN;
        }
        if (error.code() == INVALID_ARGUMENT && error.message().contains("authentication failed")) {
            throw new IllegalStateException(describe() + " refused user '" + settings.user() + "' (" + EtcdStoreProps.USER + ") with the configured password ("
                    + EtcdStoreProps.PASSWORD + ", " + EtcdStoreProps.PASSWORD_ENV + " or " + EtcdStoreProps.PASSWORD_FILE + "): " + error.message());
        }
        throw failure("/v3/auth/authenticate", error);
    }

    private HttpResponse<String> send(final String path, final String body, final String tokenUsed, final boolean repeatable) {
        if (closed) {
            throw new StoreUnavailableException("the client of " + describe() + " is closed", null);
        }
        List<URI> endpoints = settings.endpoints();
        int start = Math.floorMod(preferred.get(), endpoints.size());
        IOException last = null;
        for (int i = 0; i < endpoints.size(); i++) {
            int index = (start + i) % endpoints.size();
            HttpRequest.Builder request = HttpRequest.newBuilder(endpoints.get(index).resolve(path)).timeout(Duration.ofMillis(settings.requestTimeoutMillis()))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
            if (!tokenUsed.isEmpty()) {
                request.header("Authorization", tokenUsed);
            }
            try {
                HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
                preferred.set(index);
                return response;
            } catch (final ConnectException | HttpConnectTimeoutException ex) {
                // Never reached the server: safe to send to the next endpoint.
                last = ex;
            } catch (final IOException ex) {
                if (!repeatable) {
                    preferred.set(index + 1);
                    throw new StoreUnavailableException(describe() + " did not answer " + path + " from " + endpoints.get(index) + " (" + ex
                            + ", request timeout " + settings.requestTimeoutMillis() + " ms); the write may have been applied", ex);
                }
                last = ex;
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new StoreUnavailableException("interrupted during " + path + " on " + describe(), ex);
            }
        }
        preferred.set(start + 1);
        throw new StoreUnavailableException(describe() + " is unreachable (" + last + " during " + path + ", request timeout " + settings.requestTimeoutMillis()
                + " ms)", last);
    }

    private RuntimeException failure(final String path, final EtcdError error) {
        String text = describe() + " refused " + path + ": " + error.message() + " (gRPC code " + error.code() + ", HTTP " + error.httpStatus() + ")";
        if (error.code() == PERMISSION_DENIED) {
            return new IllegalStateException(text + "; grant " + (settings.user() == null ? "the user" : "user '" + settings.user() + "'")
                    + " read and write access to the keys under " + settings.root() + "/");
        }
        if (error.code() == UNAUTHENTICATED || error.code() == INVALID_ARGUMENT && error.message().contains("user name is empty")) {
            return new IllegalStateException(text + "; etcd requires authentication: set " + EtcdStoreProps.USER + " and its password");
        }
        if (error.code() == UNAVAILABLE || error.code() == DEADLINE_EXCEEDED || error.code() == RESOURCE_EXHAUSTED || error.code() < 0 || error.httpStatus() >= 500) {
            return new StoreUnavailableException(text, null);
        }
        return new IllegalStateException(text);
    }

    private JsonObject parse(final String path, final String body) {
        try {
            return JsonObject.parse(body);
        } catch (final IllegalArgumentException ex) {
            throw new StoreUnavailableException(describe() + " answered " + path + " with something that is not etcd's JSON: " + ex.getMessage(), ex);
        }
    }

    private static List<EtcdKeyValue> keyValues(final JsonObject answer) {
        List<EtcdKeyValue> result = new ArrayList<>();
        if (answer.get("kvs") instanceof List<?> kvs) {
            for (Object each : kvs) {
                JsonObject kv = (JsonObject) each;
                byte[] value = kv.get("value") instanceof String text ? Base64.getDecoder().decode(text) : new byte[0];
                result.add(new EtcdKeyValue(new String(Base64.getDecoder().decode(kv.text("key")), StandardCharsets.UTF_8), value, int64(kv, "create_revision"),
                        int64(kv, "mod_revision")));
            }
        }
        return result;
    }

    private static long revision(final JsonObject answer) {
        if (answer.get("header") instanceof JsonObject header) {
            return int64(header, "revision");
        }
        throw new IllegalStateException("etcd answered without a header: " + answer);
    }

    /** proto3 JSON: 64-bit integers as strings, a zero left out. */
    static long int64(final JsonObject object, final String field) {
        Object value = object.get(field);
        if (value == null) {
            return 0;
        }
        if (value instanceof String text) {
            return Long.parseLong(text);
        }
        if (value instanceof JsonNumber number && number.isWhole()) {
            return Long.parseLong(number.token());
        }
        throw new IllegalStateException("etcd answered field '" + field + "' = " + value + ", not an integer");
    }

    static String encode(final String key) {
        return encode(key.getBytes(StandardCharsets.UTF_8));
    }

    static String encode(final byte[] value) {
        return Base64.getEncoder().encodeToString(value);
    }

    /** The smallest key above every key starting with {@code prefix}; SnowKey's prefixes end in '/', never in 0xFF. */
    static String prefixEnd(final String prefix) {
        char last = prefix.charAt(prefix.length() - 1);
        return prefix.substring(0, prefix.length() - 1) + (char) (last + 1);
    }

    /**
     * Stops the client: later calls fail. The JDK's HttpClient of Java 17 has no close; its threads end once it is
     * unreferenced, and no connection of it outlives an idle timeout.
     */
    @Override
    public void close() {
        closed = true;
    }

    @Override
    public String toString() {
        return "EtcdClient[" + settings + "]";
    }

    /** An error answer of etcd's gateway: {@code {"error":..,"code":<gRPC code>,"message":..}}. */
    private record EtcdError(int httpStatus, int code, String message) {

        static EtcdError of(final HttpResponse<String> response) {
            try {
                JsonObject body = JsonObject.parse(response.body());
                int code = body.get("code") instanceof JsonNumber number && number.isWhole() ? Integer.parseInt(number.token()) : -1;
                String message = body.get("message") instanceof String text ? text : String.valueOf(body.get("error"));
                return new EtcdError(response.statusCode(), code, message);
            } catch (final IllegalArgumentException ex) {
                String body = response.body() == null ? "" : response.body();
                return new EtcdError(response.statusCode(), -1, body.length() > 200 ? body.substring(0, 200) + "..." : body);
            }
        }
    }
}
