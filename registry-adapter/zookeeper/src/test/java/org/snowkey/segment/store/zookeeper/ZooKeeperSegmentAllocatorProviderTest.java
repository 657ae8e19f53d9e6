package org.snowkey.segment.store.zookeeper;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.segment.SegmentSettings;
import org.snowkey.lease.testing.StartValuesFixtures;
import org.snowkey.keygen.segment.runtime.PreparedAllocator;

/** {@code segment-allocator: zookeeper}: what opening leaves behind when it fails half-way, and what it prints. */
class ZooKeeperSegmentAllocatorProviderTest {

    private static PreparedAllocator prepared(final String digest) {
        Properties props = new Properties();
        // Nothing listens there: the client only tries to connect, in the background.
        props.setProperty("zookeeper-server-lists", "127.0.0.1:1");
        props.setProperty("zookeeper-namespace", "review");
        if (digest != null) {
            props.setProperty("zookeeper-digest", digest);
        }
        ZooKeeperSegmentAllocatorProvider provider = new ZooKeeperSegmentAllocatorProvider();
        return provider.prepare(provider.parse(new PropertyReader(props), SegmentSettings.defaults()), Optional.<ClusterRegistry>empty());
    }

    /** ZooKeeper names its client threads after the thread that built the client: {@code <name>-SendThread(...)}, {@code <name>-EventThread}. */
    private static List<Thread> clientThreads(final String creator) {
        return Thread.getAllStackTraces().keySet().stream().filter(each -> each.isAlive() && each.getName().startsWith(creator + "-")).toList();
    }

    @Test
    void anOpenThatFailsAfterStartingTheClientClosesIt() throws InterruptedException {
        PreparedAllocator prepared = prepared(null);
        String creator = "zk-open-" + System.nanoTime();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread opening = new Thread(() -> {
            try {
                prepared.open(" ", StartValuesFixtures.everyKeyAtOne());
            } catch (final Throwable ex) {
                failure.set(ex);
            }
        }, creator);
        opening.start();
        opening.join();
        assertInstanceOf(IllegalArgumentException.class, failure.get(), "a blank owner is refused after the client was started");
        // The client's threads end when it is closed; on the unfixed code they keep reconnecting for ever.
        for (int i = 0; i < 200 && !clientThreads(creator).isEmpty(); i++) {
            Thread.sleep(50);
        }
        assertTrue(clientThreads(creator).isEmpty(), "the client of a failed open is closed: " + clientThreads(creator));
    }

    @Test
    void theDigestsPasswordIsNeverPrinted() {
        PreparedAllocator prepared = prepared("app:s3cretPw");
        assertFalse(prepared.toString().contains("s3cretPw"), prepared.toString());
        assertFalse(prepared.scopeKey().contains("s3cretPw"), prepared.scopeKey());
        try (var open = prepared.open("pid@host", StartValuesFixtures.everyKeyAtOne())) {
            assertFalse(open.toString().contains("s3cretPw"), open.toString());
            assertFalse(open.describe().contains("s3cretPw"), open.describe());
        }
    }
}
