package org.snowkey.lease.store.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.lease.LeaseRequest;
import org.snowkey.keygen.lease.PreparedLease;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.lease.testing.Ids;
import org.snowkey.store.zookeeper.ZooKeeperStoreProps;
import org.snowkey.store.zookeeper.ZooKeeperStoreSettings;

/** Prop validation and scope of the ZooKeeper provider: no registry needed, and prepare() does no I/O. */
class ZooKeeperLeaseProviderTest {

    private final ZooKeeperLeaseProvider provider = new ZooKeeperLeaseProvider();

    private static Properties props(final String... pairs) {
        Properties props = new Properties();
        for (int i = 0; i < pairs.length; i += 2) {
            props.setProperty(pairs[i], pairs[i + 1]);
        }
        return props;
    }

    private PreparedLease prepare(final Properties props, final Optional<ClusterRegistry> cluster) {
        return provider.prepare(props, Ids.layout(13), cluster);
    }

    private void assertRejected(final Properties props, final String prop, final String value) {
        InvalidSettingException failure = assertThrows(InvalidSettingException.class, () -> prepare(props, Optional.empty()));
        assertEquals(prop, failure.property());
        assertTrue(failure.getMessage().contains("'" + prop + "'") && failure.getMessage().contains(value), failure.getMessage());
    }

    @Test
    void badPropsFailNamingThePropAndTheValue() {
        assertRejected(props(), "zookeeper-server-lists", "(not set)");
        assertRejected(props("zookeeper-server-lists", "localhost"), "zookeeper-server-lists", "localhost");
        assertRejected(props("zookeeper-server-lists", "localhost:99999"), "zookeeper-server-lists", "localhost:99999");
        assertRejected(props("zookeeper-server-lists", "a:2181, b/x:2181"), "zookeeper-server-lists", "b/x:2181");
        assertRejected(props("zookeeper-server-lists", "a:2181", "zookeeper-namespace", "a/b"), "zookeeper-namespace", "a/b");
        assertRejected(props("zookeeper-server-lists", "a:2181", "lease-pool", "has space"), "lease-pool", "has space");
        // The segment counters and logs share the namespace: a pool of their name would mix lease records into them.
        assertRejected(props("zookeeper-server-lists", "a:2181", "lease-pool", "segments"), "lease-pool", "segments");
        assertRejected(props("zookeeper-server-lists", "a:2181", "lease-pool", "segment-log"), "lease-pool", "segment-log");
        assertRejected(props("zookeeper-server-lists", "a:2181", "lease-duration-milliseconds", "soon"), "lease-duration-milliseconds", "soon");
        assertRejected(props("zookeeper-server-lists", "a:2181", "lease-duration-milliseconds", "10"), "lease-duration-milliseconds", "10");
        assertRejected(props("zookeeper-server-lists", "a:2181", "lease-acquire-timeout-milliseconds", "-1"), "lease-acquire-timeout-milliseconds", "-1");
        InvalidSettingException digest = assertThrows(InvalidSettingException.class,
                () -> prepare(props("zookeeper-server-lists", "a:2181", "zookeeper-digest", "nopassword"), Optional.empty()));
        assertEquals("zookeeper-digest", digest.property());
        assertFalse(digest.getMessage().contains("nopassword"), "never echo a secret: " + digest.getMessage());
    }

    @Test
    void beforeShardingSphereNamesTheModeMissingServersAreLeftToClusterModeButBadOnesStillFail() {
        // An algorithm's init() runs before the mode is known: lease-registry: zookeeper may rely on the mode's servers.
        provider.parse(props(), LeaseTerms.parse(new PropertyReader(props())));
        InvalidSettingException failure = assertThrows(InvalidSettingException.class,
                () -> provider.parse(props("zookeeper-server-lists", "localhost"), LeaseTerms.parse(new PropertyReader(props()))));
        assertEquals("zookeeper-server-lists", failure.property());
    }

    @Test
    void prepareDoesNoIoAndScopesByRegistryServersNamespaceAndPool() {
        // Nothing listens on port 1: preparing must not notice.
        PreparedLease prepared = prepare(props("zookeeper-server-lists", "127.0.0.1:1, 127.0.0.2:1", "zookeeper-namespace", "ns", "lease-pool", "p"),
                Optional.empty());
        assertEquals("zookeeper|127.0.0.1:1,127.0.0.2:1|ns|p", prepared.scopeKey());
        PreparedLease sameEnsembleOtherOrder = prepare(props("zookeeper-server-lists", "127.0.0.2:1,127.0.0.1:1", "zookeeper-namespace", "ns", "lease-pool", "p"),
                Optional.empty());
        assertEquals(prepared.scopeKey(), sameEnsembleOtherOrder.scopeKey());
        assertEquals("zookeeper|a:2181|snowkey|default", prepare(props("zookeeper-server-lists", "a:2181"), Optional.empty()).scopeKey());
    }

    @Test
    void inClusterModeTheEnsembleAndNamespaceComeFromTheModeUnlessPropsSayOtherwise() {
        Properties modeProps = props("digest", "mode:secret");
        Optional<ClusterRegistry> cluster = Optional.of(new ClusterRegistry("ZooKeeper", "governance_ds", "zk2:2181,zk1:2181", modeProps));
        assertEquals("zookeeper|zk1:2181,zk2:2181|governance_ds|default", prepare(props(), cluster).scopeKey());
        assertEquals("zookeeper|other:2181|governance_ds|orders", prepare(props("zookeeper-server-lists", "other:2181", "lease-pool", "orders"), cluster).scopeKey());
        ZooKeeperStoreSettings settings = ZooKeeperStoreProps.parse(new org.snowkey.keygen.config.PropertyReader(props()), cluster, 15_000);
        assertEquals("mode:secret", settings.digest(), "the mode's digest guards the leases too");
        assertFalse(settings.toString().contains("secret"), settings.toString());
        Optional<ClusterRegistry> etcd = Optional.of(new ClusterRegistry("etcd", "ns", "http://etcd:2379", new Properties()));
        assertThrows(InvalidSettingException.class, () -> prepare(props(), etcd));
    }

    @Test
    void sharedDefaultsAreDocumentedValues() {
        LeaseTerms settings = LeaseTerms.parse(new org.snowkey.keygen.config.PropertyReader(props()));
        assertEquals("default", settings.pool());
        assertEquals(60_000, settings.durationMillis());
        assertEquals(15_000, settings.acquireTimeoutMillis());
        assertTrue(settings.instanceId().endsWith("@" + ProcessHandle.current().pid()), settings.instanceId());
        assertEquals(20_000, settings.renewIntervalMillis());
    }
}
