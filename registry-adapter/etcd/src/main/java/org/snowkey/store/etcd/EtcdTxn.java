package org.snowkey.store.etcd;

import java.util.ArrayList;
import java.util.List;

import org.snowkey.store.json.JsonObjectWriter;

/**
 * One etcd transaction ({@code POST /v3/kv/txn}): compares, the writes applied when all hold, and the reads answered
 * when one fails. etcd applies a transaction atomically at one revision, which is how SnowKey's compare-and-set and
 * "range plus log entry" steps are atomic.
 */
public final class EtcdTxn {

    private final List<JsonObjectWriter> compares = new ArrayList<>();

    private final List<JsonObjectWriter> success = new ArrayList<>();

    private final List<JsonObjectWriter> failure = new ArrayList<>();

    private boolean writes;

    /** Holds when the key's last change is exactly {@code modRevision} (a key that is absent has none). */
    public EtcdTxn ifModRevision(final String key, final long modRevision) {
        compares.add(new JsonObjectWriter().field("key", EtcdClient.encode(key)).field("target", "MOD").field("result", "EQUAL")
                .field("mod_revision", Long.toString(modRevision)));
        return this;
    }

    /** Holds when the key does not exist. */
    public EtcdTxn ifAbsent(final String key) {
        compares.add(new JsonObjectWriter().field("key", EtcdClient.encode(key)).field("target", "CREATE").field("result", "EQUAL").field("create_revision", "0"));
        return this;
    }

    public EtcdTxn put(final String key, final byte[] value) {
        writes = true;
        success.add(new JsonObjectWriter().object("request_put", new JsonObjectWriter().field("key", EtcdClient.encode(key)).field("value", EtcdClient.encode(value))));
        return this;
    }

    public EtcdTxn delete(final String key) {
        writes = true;
        success.add(new JsonObjectWriter().object("request_delete_range", new JsonObjectWriter().field("key", EtcdClient.encode(key))));
        return this;
    }

    /** When every compare holds: answers the key as it stands, at the transaction's revision. */
    public EtcdTxn get(final String key) {
        success.add(new JsonObjectWriter().object("request_range", new JsonObjectWriter().field("key", EtcdClient.encode(key))));
        return this;
    }

    /** When every compare holds: answers the highest key starting with {@code prefix}, at the transaction's revision. */
    public EtcdTxn getHighest(final String prefix) {
        success.add(new JsonObjectWriter().object("request_range", new JsonObjectWriter().field("key", EtcdClient.encode(prefix))
                .field("range_end", EtcdClient.encode(EtcdClient.prefixEnd(prefix))).field("limit", "1").field("sort_order", "DESCEND").field("sort_target", "KEY")));
        return this;
    }

    /** Whether it only reads: then sending it again is harmless. */
    boolean readsOnly() {
        return !writes;
    }

    /** When a compare fails: answers the key as it stands (for a message or a retry). */
    public EtcdTxn otherwiseGet(final String key) {
        failure.add(new JsonObjectWriter().object("request_range", new JsonObjectWriter().field("key", EtcdClient.encode(key))));
        return this;
    }

    String toJson() {
        return new JsonObjectWriter().array("compare", compares).array("success", success).array("failure", failure).toString();
    }

    /**
     * The outcome.
     *
     * @param succeeded whether every compare held and the writes were applied
     * @param revision the store's revision after the transaction: the new mod revision of every key it wrote
     * @param read the keys the failure branch read (empty when it succeeded)
     */
    public record Result(boolean succeeded, long revision, List<EtcdKeyValue> read) {
    }
}
