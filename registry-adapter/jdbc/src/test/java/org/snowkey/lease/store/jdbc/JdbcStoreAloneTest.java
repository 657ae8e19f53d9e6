package org.snowkey.lease.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.ServiceLoader;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.lease.LeaseRequest;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.lease.WorkerLeaseProvider;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.lease.testing.Ids;
import org.snowkey.lease.testing.IsolatedClassPath;
import org.snowkey.segment.store.jdbc.JdbcSegmentAllocatorProvider;

/**
 * snowkey-lease-jdbc on its own: it brings no ZooKeeper, registers only its own registry, and copied without HikariCP
 * it names the missing artifact at start-up. (This module's test class path is the store's, plus H2 and the test
 * drivers: no module here adds Curator.)
 */
public class JdbcStoreAloneTest {

    /** Prepares a JDBC lease as start-up does; returns "prepared" or the failure's message. */
    public static String prepare() {
        Properties props = new Properties();
        props.setProperty("lease-registry", "jdbc");
        props.setProperty("jdbc-url", "jdbc:h2:mem:alone");
        try {
            new JdbcLeaseProvider().prepare(props, Ids.layout(13), Optional.empty());
            return "prepared";
        } catch (final IllegalStateException ex) {
            return ex.getMessage();
        }
    }

    /** Prepares a JDBC segment allocator as start-up does; returns "prepared" or the failure's message. */
    public static String prepareSegments() {
        Properties props = new Properties();
        props.setProperty("jdbc-url", "jdbc:h2:mem:alone");
        JdbcSegmentAllocatorProvider provider = new JdbcSegmentAllocatorProvider();
        try {
            provider.prepare(provider.parse(new PropertyReader(props), SegmentSettings.defaults()), Optional.empty());
            return "prepared";
        } catch (final IllegalStateException ex) {
            return ex.getMessage();
        }
    }

    @Test
    void theJdbcStoreBringsNeitherCuratorNorZooKeeper() {
        assertThrows(ClassNotFoundException.class, () -> Class.forName("org.apache.curator.framework.CuratorFramework"));
        assertThrows(ClassNotFoundException.class, () -> Class.forName("org.apache.zookeeper.ZooKeeper"));
    }

    @Test
    void onlyTheJdbcRegistryIsRegistered() {
        List<String> registries = ServiceLoader.load(WorkerLeaseProvider.class).stream().map(each -> each.get().registry()).toList();
        assertEquals(List.of("jdbc"), registries);
    }

    @Test
    void withoutHikariCpStartUpNamesTheMissingArtifact() throws Exception {
        String message = IsolatedClassPath.call(JdbcStoreAloneTest.class, "prepare", "/com/zaxxer/");
        assertTrue(message.startsWith("SnowKey lease-registry: jdbc needs com.zaxxer:HikariCP on the class path, and it is missing")
                && message.contains("org.snowkey:snowkey-lease-jdbc declares it"), message);
    }

    /** The segment allocator checks the same libraries through the store layer, and says which setting chose the store. */
    @Test
    void withoutHikariCpSegmentsNameTheMissingArtifact() throws Exception {
        String message = IsolatedClassPath.call(JdbcStoreAloneTest.class, "prepareSegments", "/com/zaxxer/");
        assertTrue(message.startsWith("SnowKey segment-allocator: jdbc needs com.zaxxer:HikariCP on the class path, and it is missing")
                && message.contains("org.snowkey:snowkey-lease-jdbc declares it"), message);
        assertEquals("prepared", prepareSegments());
    }

    @Test
    void withHikariCpTheSameRequestPrepares() {
        assertEquals("prepared", prepare());
    }
}
