package org.snowkey.segment.store.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.ServiceLoader;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.lease.WorkerLeaseProvider;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.keygen.segment.runtime.OpenAllocator;
import org.snowkey.keygen.segment.runtime.PreparedAllocator;
import org.snowkey.keygen.segment.runtime.SegmentAllocatorProvider;
import org.snowkey.lease.store.etcd.EtcdLeaseProvider;
import org.snowkey.lease.testing.StartValuesFixtures;
import org.snowkey.store.etcd.EtcdTestServer;

/** Both etcd providers are found through ServiceLoader by their names, refuse bad props at start-up and never print a password. */
class EtcdProvidersTest {

    private static final String SECRET = "Pw-never-printed-42";

    @Test
    void bothProvidersAreRegisteredUnderEtcd() {
        assertTrue(ServiceLoader.load(WorkerLeaseProvider.class).stream().anyMatch(each -> each.get() instanceof EtcdLeaseProvider p && "etcd".equals(p.registry())));
        assertTrue(ServiceLoader.load(SegmentAllocatorProvider.class).stream()
                .anyMatch(each -> each.get() instanceof EtcdSegmentAllocatorProvider p && "etcd".equals(p.name())));
    }

    @Test
    void theLeaseProviderRefusesABadEndpointNamingPropAndValue() {
        Properties props = new Properties();
        props.setProperty("etcd-endpoints", "127.0.0.1:99999");
        InvalidSettingException bad = assertThrows(InvalidSettingException.class,
                () -> new EtcdLeaseProvider().parse(props, LeaseTerms.parse(new PropertyReader(new Properties()))));
        assertTrue(bad.getMessage().contains("etcd-endpoints") && bad.getMessage().contains("127.0.0.1:99999"), bad.getMessage());
    }

    @Test
    void theLeaseProviderRefusesAPoolNamedLikeTheSegmentNodesBesideIt() {
        for (String pool : new String[] {"segments", "segment-log"}) {
            Properties props = new Properties();
            props.setProperty("etcd-endpoints", "127.0.0.1:2379");
            props.setProperty("lease-pool", pool);
            InvalidSettingException bad = assertThrows(InvalidSettingException.class,
                    () -> new EtcdLeaseProvider().parse(props, LeaseTerms.parse(new PropertyReader(props))));
            assertEquals("lease-pool", bad.property());
            assertTrue(bad.getMessage().contains("'" + pool + "'"), bad.getMessage());
        }
    }

    @Test
    void theSegmentAllocatorTakesRangesFromTheModesEtcdAndNeverPrintsThePassword() {
        try (EtcdTestServer server = EtcdTestServer.startNew()) {
            Properties props = new Properties();
            props.setProperty("etcd-user", "snowkey");
            props.setProperty("etcd-password", SECRET);
            EtcdSegmentAllocatorProvider provider = new EtcdSegmentAllocatorProvider();
            ClusterRegistry mode = new ClusterRegistry("etcd", "governance_ds", server.endpoint().toString(), new Properties());
            PreparedAllocator prepared = provider.prepare(provider.parse(new PropertyReader(props), SegmentSettings.defaults()), Optional.of(mode));
            assertFalse(prepared.toString().contains(SECRET), prepared.toString());
            assertFalse(prepared.scopeKey().contains(SECRET), prepared.scopeKey());
            assertTrue(prepared.scopeKey().contains(server.endpoint().toString()) && prepared.scopeKey().contains("governance_ds"), prepared.scopeKey());
            // etcd runs without authentication here: the user is not needed, and the ranges come from the mode's server.
            try (OpenAllocator open = prepared.open("pid@host", StartValuesFixtures.everyKeyAtOne())) {
                assertEquals(new NumberRange(1, 5), open.allocate("k", 5));
                assertFalse(open.toString().contains(SECRET), open.toString());
                assertTrue(open.describe().contains(server.endpoint().toString()), open.describe());
            }
            try (var client = new org.snowkey.store.etcd.EtcdClient(server.settings("governance_ds"))) {
                assertEquals(List.of("k"), new EtcdRangeLog(client).keys());
            }
        }
    }
}
