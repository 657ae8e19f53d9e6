package org.snowkey.lease.store.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.StoredLease;
import org.snowkey.store.etcd.EtcdClient;
import org.snowkey.store.etcd.EtcdTestServer;

/**
 * The compares of each lease write, one store call at a time on a real etcd: two stores stand for two instances that
 * read the same record and then write it.
 */
class EtcdLeaseStoreTest {

    private static final String POOL = "default";

    @RegisterExtension
    static final EtcdTestServer.PerClass ETCD = new EtcdTestServer.PerClass();

    private EtcdLeaseStore first;

    private EtcdLeaseStore second;

    @BeforeEach
    void openStores() {
        String namespace = "store" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        first = new EtcdLeaseStore(new EtcdClient(ETCD.server().settings(namespace)));
        second = new EtcdLeaseStore(new EtcdClient(ETCD.server().settings(namespace)));
    }

    @AfterEach
    void closeStores() {
        first.close();
        second.close();
    }

    private static LeaseRecord held(final String owner, final long token) {
        return new LeaseRecord(POOL, 3, owner, token, 10_000, 20_000, LeaseRecord.State.HELD);
    }

    @Test
    @Timeout(60)
    void aSecondClaimOfANumberNeverUsedLosesAndLeavesTheFirstHolder() {
        assertTrue(first.create(held("a", 1)).isPresent());
        assertEquals(Optional.empty(), second.create(held("b", 1)));
        assertEquals("a", second.read(POOL, 3).orElseThrow().record().owner());
    }

    @Test
    @Timeout(60)
    void aRecordDeletedAndClaimedAgainIsNeverWrittenWithTheVersionReadBefore() {
        long version = first.create(held("a", 1)).orElseThrow();
        StoredLease read = second.read(POOL, 3).orElseThrow();
        assertEquals(version, read.storeVersion());
        assertTrue(first.delete(POOL, 3, version));
        long again = first.create(held("c", 2)).orElseThrow();
        assertTrue(again > version, "a record created again must carry a new version: " + again + " after " + version);
        assertEquals(Optional.empty(), second.compareAndSet(held("b", 2), read.storeVersion()));
        assertFalse(second.delete(POOL, 3, read.storeVersion()));
        assertEquals("c", first.read(POOL, 3).orElseThrow().record().owner());
    }

    @Test
    @Timeout(60)
    void aTakeoverWithAStaleVersionLosesToTheRenewalThatCameFirst() {
        long version = first.create(held("a", 1)).orElseThrow();
        assertTrue(first.compareAndSet(held("a", 1), version).isPresent());
        assertEquals(Optional.empty(), second.compareAndSet(held("b", 2), version));
        assertFalse(second.delete(POOL, 3, version));
        assertEquals("a", second.read(POOL, 3).orElseThrow().record().owner());
    }

    @Test
    @Timeout(60)
    void aCompareAndSetOfARecordThatDoesNotExistCreatesNothing() {
        // etcd compares an absent key's mod_revision as 0; no stored record has version 0, so version 0 must not match "absent".
        assertEquals(Optional.empty(), first.compareAndSet(held("a", 1), 0));
        assertEquals(Optional.empty(), first.read(POOL, 3));
    }
}
