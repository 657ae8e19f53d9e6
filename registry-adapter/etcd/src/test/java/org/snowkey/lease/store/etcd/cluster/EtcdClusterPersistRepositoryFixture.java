package org.snowkey.lease.store.etcd.cluster;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.shardingsphere.infra.instance.ComputeNodeInstanceContext;
import org.apache.shardingsphere.mode.event.DataChangedEvent;
import org.apache.shardingsphere.mode.repository.cluster.ClusterPersistRepository;
import org.apache.shardingsphere.mode.repository.cluster.ClusterPersistRepositoryConfiguration;
import org.apache.shardingsphere.mode.repository.cluster.listener.DataChangedEventListener;
import org.apache.shardingsphere.mode.repository.cluster.lock.holder.DistributedLockHolder;
import org.apache.shardingsphere.mode.repository.cluster.lock.impl.props.DefaultLockTypedProperties;

/**
 * TEST FIXTURE, not a product: a ShardingSphere 5.5.2 cluster repository of type {@code etcd}, because
 * ShardingSphere's own etcd repository jar is not served here on any line. It is configured as the real one is
 * ({@code server-lists} of {@code http://host:port} endpoints, the mode's {@code namespace}) and keeps ShardingSphere's
 * data in the real etcd server the way the real one does: every key prefixed by the namespace's bytes
 * ({@code <namespace>/metadata/...}), ephemeral keys on etcd leases kept alive while the repository is open, watches
 * on key prefixes. So SnowKey, reading the same mode configuration, shares the etcd server and namespace with the
 * mode exactly as it would with the real repository.
 *
 * <p>It speaks etcd's v3 JSON gateway with the JDK's HttpClient, independently of SnowKey's own etcd client, so that
 * a fault of that client cannot hide behind the repository. Unlike ShardingSphere's repository (whose
 * {@code persistExclusiveEphemeral} does not reserve exclusively), its exclusive ephemeral keys are exclusive: a
 * transaction creates them only where they are absent, so ShardingSphere's own locks hold in the tests.
 */
public final class EtcdClusterPersistRepositoryFixture implements ClusterPersistRepository {

    /** The real repository's default time to live of ephemeral keys. */
    private static final long EPHEMERAL_TTL_SECONDS = 30;

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    private final ObjectMapper json = new ObjectMapper();

    private final Set<String> ephemeralLeaseIds = ConcurrentHashMap.newKeySet();

    private final Map<String, Stream<String>> watches = new ConcurrentHashMap<>();

    private HttpClient http;

    private List<URI> endpoints;

    private byte[] namespace;

    private ScheduledExecutorService keepAlive;

    /** One thread, so that a listener sees the events of the server in the server's order. */
    private ExecutorService events;

    private DistributedLockHolder lockHolder;

    @Override
    public void init(final ClusterPersistRepositoryConfiguration config, final ComputeNodeInstanceContext computeNodeInstanceContext) {
        endpoints = Arrays.stream(config.getServerLists().split(",")).map(String::trim).filter(each -> !each.isEmpty()).map(URI::create).toList();
        namespace = config.getNamespace().getBytes(StandardCharsets.UTF_8);
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(REQUEST_TIMEOUT).build();
        keepAlive = Executors.newSingleThreadScheduledExecutor(daemon("etcd-fixture-keepalive"));
        keepAlive.scheduleWithFixedDelay(this::keepEphemeralKeysAlive, EPHEMERAL_TTL_SECONDS / 3, EPHEMERAL_TTL_SECONDS / 3, TimeUnit.SECONDS);
        events = Executors.newSingleThreadExecutor(daemon("etcd-fixture-events"));
        lockHolder = new DistributedLockHolder("default", this, new DefaultLockTypedProperties(new Properties()));
    }

    @Override
    public String query(final String key) {
        JsonNode kvs = call("/v3/kv/range", request().put("key", encode(key))).path("kvs");
        return kvs.isEmpty() ? null : decodeValue(kvs.get(0).path("value").asText(""));
    }

    /** The direct children's names in key order, as the real repository lists them. */
    @Override
    public List<String> getChildrenKeys(final String key) {
        String prefix = key + "/";
        ObjectNode range = request().put("key", encode(prefix)).put("range_end", prefixEnd(prefix)).put("keys_only", true)
                .put("sort_order", "ASCEND").put("sort_target", "KEY");
        List<String> result = new ArrayList<>();
        for (JsonNode each : call("/v3/kv/range", range).path("kvs")) {
            String below = decodeKey(each.path("key").asText()).substring(prefix.length());
            String child = below.contains("/") ? below.substring(0, below.indexOf('/')) : below;
            if (!child.isEmpty() && !result.contains(child)) {
                result.add(child);
            }
        }
        return result;
    }

    @Override
    public boolean isExisted(final String key) {
        return call("/v3/kv/range", request().put("key", encode(key)).put("count_only", true)).path("count").asLong(0) > 0;
    }

    @Override
    public void persist(final String key, final String value) {
        createParents(key);
        put(key, value, null);
    }

    @Override
    public void update(final String key, final String value) {
        put(key, value, null);
    }

    @Override
    public void persistEphemeral(final String key, final String value) {
        createParents(key);
        put(key, value, grantEphemeralLease());
    }

    @Override
    public boolean persistExclusiveEphemeral(final String key, final String value) {
        createParents(key);
        String lease = grantEphemeralLease();
        boolean created = createIfAbsent(key, value, lease);
        if (!created) {
            revoke(lease);
        }
        return created;
    }

    @Override
    public DistributedLockHolder getDistributedLockHolder() {
        return lockHolder;
    }

    /** The key and everything below it. */
    @Override
    public void delete(final String key) {
        call("/v3/kv/deleterange", request().put("key", encode(key)));
        call("/v3/kv/deleterange", request().put("key", encode(key + "/")).put("range_end", prefixEnd(key + "/")));
    }

    /** Every change of a key starting with {@code key}, on one long-lived gateway stream. */
    @Override
    public void watch(final String key, final DataChangedEventListener listener) {
        ObjectNode create = json.createObjectNode();
        create.putObject("create_request").put("key", encode(key)).put("range_end", prefixEnd(key));
        HttpResponse<Stream<String>> response;
        try {
            response = http.send(post(endpoints.get(0), "/v3/watch", create).build(), HttpResponse.BodyHandlers.ofLines());
        } catch (final IOException ex) {
            throw new IllegalStateException("fixture repository could not watch " + key + " on " + endpoints.get(0), ex);
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
        Stream<String> lines = response.body();
        Stream<String> previous = watches.put(key, lines);
        if (previous != null) {
            previous.close();
        }
        Thread reader = daemon("etcd-fixture-watch").newThread(() -> {
            try {
                lines.forEach(line -> dispatch(line, listener));
            } catch (final RuntimeException ignored) {
                // The stream was closed (removeDataListener, close) or the server went away: the watch ends.
            }
        });
        reader.start();
    }

    @Override
    public void removeDataListener(final String key) {
        Stream<String> lines = watches.remove(key);
        if (lines != null) {
            lines.close();
        }
    }

    @Override
    public void close() {
        watches.values().forEach(Stream::close);
        watches.clear();
        if (keepAlive != null) {
            keepAlive.shutdownNow();
            events.shutdownNow();
            // The instance's ephemeral keys go now, not a time to live later, as a closed ZooKeeper session's would.
            ephemeralLeaseIds.forEach(this::revokeQuietly);
        }
    }

    @Override
    public String getType() {
        return "etcd";
    }

    private void dispatch(final String line, final DataChangedEventListener listener) {
        JsonNode result;
        try {
            result = json.readTree(line).path("result");
        } catch (final IOException ex) {
            return;
        }
        for (JsonNode event : result.path("events")) {
            JsonNode kv = event.path("kv");
            String key = decodeKey(kv.path("key").asText());
            DataChangedEvent.Type type;
            if ("DELETE".equals(event.path("type").asText())) {
                type = DataChangedEvent.Type.DELETED;
            } else {
                type = "1".equals(kv.path("version").asText()) ? DataChangedEvent.Type.ADDED : DataChangedEvent.Type.UPDATED;
            }
            String value = decodeValue(kv.path("value").asText(""));
            events.execute(() -> listener.onChange(new DataChangedEvent(key, value, type)));
        }
    }

    /** Each missing ancestor of {@code key} as an empty key, so that a parent reads as existing, as in a tree. */
    private void createParents(final String key) {
        int slash = key.indexOf('/', 1);
        while (slash > 0) {
            createIfAbsent(key.substring(0, slash), "", null);
            slash = key.indexOf('/', slash + 1);
        }
    }

    private void put(final String key, final String value, final String lease) {
        ObjectNode put = request().put("key", encode(key)).put("value", encodeValue(value));
        if (lease != null) {
            put.put("lease", lease);
        }
        call("/v3/kv/put", put);
    }

    /** One transaction: create {@code key} only where it does not exist (its create revision is 0). */
    private boolean createIfAbsent(final String key, final String value, final String lease) {
        ObjectNode txn = json.createObjectNode();
        ArrayNode compare = txn.putArray("compare");
        compare.addObject().put("key", encode(key)).put("target", "CREATE").put("result", "EQUAL").put("create_revision", "0");
        ObjectNode put = txn.putArray("success").addObject().putObject("request_put").put("key", encode(key)).put("value", encodeValue(value));
        if (lease != null) {
            put.put("lease", lease);
        }
        return call("/v3/kv/txn", txn).path("succeeded").asBoolean(false);
    }

    private String grantEphemeralLease() {
        String id = call("/v3/lease/grant", json.createObjectNode().put("TTL", String.valueOf(EPHEMERAL_TTL_SECONDS))).path("ID").asText();
        ephemeralLeaseIds.add(id);
        return id;
    }

    private void keepEphemeralKeysAlive() {
        for (String each : ephemeralLeaseIds) {
            try {
                call("/v3/lease/keepalive", json.createObjectNode().put("ID", each));
            } catch (final RuntimeException ignored) {
                // Tried again at the next period; a key whose lease expired meanwhile is gone, as an expired session's node.
            }
        }
    }

    private void revoke(final String lease) {
        ephemeralLeaseIds.remove(lease);
        call("/v3/lease/revoke", json.createObjectNode().put("ID", lease));
    }

    private void revokeQuietly(final String lease) {
        try {
            revoke(lease);
        } catch (final RuntimeException ignored) {
            // The server is gone: the lease expires on its own.
        }
    }

    private ObjectNode request() {
        return json.createObjectNode();
    }

    /** One request, on the first endpoint that answers. */
    private JsonNode call(final String path, final ObjectNode body) {
        IOException last = null;
        for (URI each : endpoints) {
            try {
                HttpResponse<String> response = http.send(post(each, path, body).timeout(REQUEST_TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    throw new IllegalStateException("fixture repository: " + path + " on " + each + " answered " + response.statusCode() + ": " + response.body());
                }
                return json.readTree(response.body());
            } catch (final IOException ex) {
                last = ex;
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
        }
        throw new IllegalStateException("fixture repository: no etcd endpoint of " + endpoints + " answered " + path, last);
    }

    private HttpRequest.Builder post(final URI endpoint, final String path, final ObjectNode body) {
        try {
            return HttpRequest.newBuilder(endpoint.resolve(path)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)));
        } catch (final IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** The key in etcd: the namespace's bytes, then the key, as the real repository's client prefixes it. */
    private String encode(final String key) {
        byte[] text = key.getBytes(StandardCharsets.UTF_8);
        byte[] full = Arrays.copyOf(namespace, namespace.length + text.length);
        System.arraycopy(text, 0, full, namespace.length, text.length);
        return Base64.getEncoder().encodeToString(full);
    }

    private static String encodeValue(final String value) {
        return Base64.getEncoder().encodeToString((value == null ? "" : value).getBytes(StandardCharsets.UTF_8));
    }

    /** A key as ShardingSphere knows it: the namespace's bytes taken off. */
    private String decodeKey(final String base64) {
        byte[] bytes = Base64.getDecoder().decode(base64);
        boolean prefixed = bytes.length >= namespace.length && Arrays.equals(bytes, 0, namespace.length, namespace, 0, namespace.length);
        int from = prefixed ? namespace.length : 0;
        return new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
    }

    private static String decodeValue(final String base64) {
        return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
    }

    /** The end of the range of keys starting with the namespace and {@code prefix}: the prefix with its last byte raised by one. */
    private String prefixEnd(final String prefix) {
        byte[] start = Base64.getDecoder().decode(encode(prefix));
        for (int i = start.length - 1; i >= 0; i--) {
            if (start[i] != (byte) 0xff) {
                byte[] end = Arrays.copyOf(start, i + 1);
                end[i]++;
                return Base64.getEncoder().encodeToString(end);
            }
        }
        // Every byte 0xff: no end, "\0" means to the end of the key space.
        return Base64.getEncoder().encodeToString(new byte[] {0});
    }

    private static java.util.concurrent.ThreadFactory daemon(final String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
