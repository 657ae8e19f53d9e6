package org.snowkey.lease.store.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.lease.LeaseRequest;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.lease.admin.LeaseCli;
import org.snowkey.lease.testing.Ids;
import org.snowkey.lease.testing.IsolatedClassPath;
import org.snowkey.segment.store.zookeeper.ZooKeeperSegmentAllocatorProvider;

/** snowkey-lease-zookeeper copied without Curator: start-up names the missing artifact, not a class deep in a stack. */
public class ZooKeeperMissingLibraryTest {

    /** Prepares a ZooKeeper lease as start-up does; returns "prepared" or the failure's message. */
    public static String prepare() {
        Properties props = new Properties();
        props.setProperty("lease-registry", "zookeeper");
        props.setProperty("zookeeper-server-lists", "127.0.0.1:2181");
        try {
            new ZooKeeperLeaseProvider().prepare(props, Ids.layout(13), Optional.empty());
            return "prepared";
        } catch (final IllegalStateException ex) {
            return ex.getMessage();
        }
    }

    /** Prepares a ZooKeeper segment allocator as start-up does; returns "prepared" or the failure's message. */
    public static String prepareSegments() {
        Properties props = new Properties();
        props.setProperty("zookeeper-server-lists", "127.0.0.1:2181");
        ZooKeeperSegmentAllocatorProvider provider = new ZooKeeperSegmentAllocatorProvider();
        try {
            provider.prepare(provider.parse(new PropertyReader(props), SegmentSettings.defaults()), Optional.empty());
            return "prepared";
        } catch (final IllegalStateException ex) {
            return ex.getMessage();
        }
    }

    /** Runs the operations tool's list on an address nobody listens on; returns the exit status and what it printed. */
    public static String operationsToolList() {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream printer = new PrintStream(printed, true, StandardCharsets.UTF_8);
        int status = LeaseCli.run(new String[] {"--registry", "zookeeper", "--servers", "127.0.0.1:1", "list"}, Map.of(), printer, printer);
        return status + ": " + printed.toString(StandardCharsets.UTF_8);
    }

    @Test
    void withoutCuratorTheOperationsToolNamesTheMissingArtifact() throws Exception {
        String result = IsolatedClassPath.call(ZooKeeperMissingLibraryTest.class, "operationsToolList", "/org/apache/curator/");
        assertTrue(result.startsWith("1: SnowKey lease-registry: zookeeper needs org.apache.curator:curator-framework on the class path"), result);
    }

    @Test
    void withoutCuratorStartUpNamesTheMissingArtifact() throws Exception {
        String message = IsolatedClassPath.call(ZooKeeperMissingLibraryTest.class, "prepare", "/org/apache/curator/");
        assertTrue(message.startsWith("SnowKey lease-registry: zookeeper needs org.apache.curator:curator-framework on the class path, and it is missing")
                && message.contains("org.snowkey:snowkey-lease-zookeeper declares it"), message);
    }

    /** The segment allocator checks the same libraries through the store layer, and says which setting chose the store. */
    @Test
    void withoutCuratorSegmentsNameTheMissingArtifact() throws Exception {
        String message = IsolatedClassPath.call(ZooKeeperMissingLibraryTest.class, "prepareSegments", "/org/apache/curator/");
        assertTrue(message.startsWith("SnowKey segment-allocator: zookeeper needs org.apache.curator:curator-framework on the class path, and it is missing")
                && message.contains("org.snowkey:snowkey-lease-zookeeper declares it"), message);
        assertEquals("prepared", prepareSegments());
    }

    /** The store writes its JSON itself: it needs no Jackson, so it can never change the Jackson a host application runs. */
    @Test
    void withoutJacksonTheSameRequestPrepares() throws Exception {
        assertEquals("prepared", IsolatedClassPath.call(ZooKeeperMissingLibraryTest.class, "prepare", "/com/fasterxml/jackson/"));
    }

    @Test
    void withEveryLibraryTheSameRequestPrepares() throws Exception {
        assertEquals("prepared", IsolatedClassPath.call(ZooKeeperMissingLibraryTest.class, "prepare", "/com/h2database/"));
    }
}
