package org.snowkey.store.etcd;

import java.nio.charset.StandardCharsets;

/**
 * One key as etcd answered it.
 *
 * @param key the key
 * @param value the value (empty for a keys-only range)
 * @param createRevision the revision that created the key (0: absent)
 * @param modRevision the revision of its last change: the store version a compare-and-set names
 */
public record EtcdKeyValue(String key, byte[] value, long createRevision, long modRevision) {

    public String valueText() {
        return new String(value, StandardCharsets.UTF_8);
    }
}
