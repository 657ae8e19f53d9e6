package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.Properties;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.apache.shardingsphere.infra.config.mode.ModeConfiguration;
import org.apache.shardingsphere.mode.repository.cluster.ClusterPersistRepositoryConfiguration;
import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.generator.SequenceStream;
import org.snowkey.keygen.lease.LeaseUnavailableException;
import org.snowkey.keygen.runtime.SnowflakeRuntime;

/** The binding's stream caches across a rebind: a stream of the generator it left must never be handed out again. */
class ImprovedSnowflakeBindingTest {

    @AfterEach
    void closeAll() {
        SnowflakeRuntime.get().closeAll();
    }

    @Test
    void afterARebindEveryTableGetsItsStreamFromTheNewGenerator() {
        Properties props = new Properties();
        props.setProperty("worker-id", "28");
        ImprovedSnowflakeBinding binding = new ImprovedSnowflakeBinding();
        binding.init(props);
        // The same String instances every time, as ShardingSphere passes them: the last-table shortcut is taken.
        String database = "logic_db";
        String table = "t_order";
        Object firstContext = new Object();
        binding.bind(Optional.empty(), firstContext);
        SequenceStream first = binding.stream(database, table);
        long lastOfFirst = first.nextId();
        assertSame(first, binding.stream(database, table), "the shortcut serves a burst into one table");

        SnowflakeRuntime.get().release(firstContext);
        assertThrows(LeaseUnavailableException.class, first::nextId, "the first context's generation was released with it");
        binding.bind(Optional.empty(), new Object());

        SequenceStream next = binding.stream(database, table);
        IdGenerator bound = binding.generator();
        assertNotSame(first, next, "a stream of the released generator was handed out after the rebind");
        assertSame(bound.stream("logic_db.t_order"), next, "the table's one stream in the generator now bound");
        assertTrue(next.nextId() > lastOfFirst, "the next generation of worker id 28 continues above the released one");
    }

    @Test
    void aGenerationReleasedUnderALiveKeyGeneratorIsJoinedAgainWithItsOwner() {
        Properties props = new Properties();
        props.setProperty("worker-id", "29");
        ImprovedSnowflakeBinding binding = new ImprovedSnowflakeBinding();
        binding.init(props);
        Object context = new Object();
        binding.bind(Optional.empty(), context);
        IdGenerator first = binding.generator();
        long lastOfFirst = binding.stream("logic_db", "t_order").nextId();

        // A close meant for another data source released this one's context: its generation ended under it.
        SnowflakeRuntime.get().release(context);
        assertTrue(first.hasEnded());
        long next = binding.stream("logic_db", "t_order").nextId();
        assertTrue(next > lastOfFirst, "the key generator joined the next generation instead of failing every key on the released one");
        IdGenerator rejoined = binding.generator();
        assertNotSame(first, rejoined);

        SnowflakeRuntime.get().release(context);
        assertTrue(rejoined.hasEnded(), "the generation joined again is owned by the same context, and ends with it");
    }

    @Test
    void anInstanceNeverToldItsContextTakesTheClusterModeRecordedAtStartUpInsteadOfWorkerIdZero() {
        // A context started in Cluster mode whose databases had no SnowKey key generator yet; one added later (DistSQL on
        // the Proxy, on 5.5.0) is never told the context. A repository type SnowKey has no backend for shows which plan it got.
        ModeConfigurations.recordStarted(new ModeConfiguration("Cluster", new ClusterPersistRepositoryConfiguration("NoSuchRepository", "gov", "127.0.0.1:1",
                new Properties())));
        try {
            ImprovedSnowflakeBinding addedLater = new ImprovedSnowflakeBinding();
            addedLater.init(new Properties());
            InvalidSettingException ex = assertThrows(InvalidSettingException.class, addedLater::generator, "planned worker id 0 without the mode");
            assertTrue(ex.getMessage().contains("Cluster mode with a NoSuchRepository repository"), ex.getMessage());
        } finally {
            ClusterRegistriesSeen.forget();
        }
    }

    @Test
    void inClusterModeWithoutARegistrySnowKeyCanReadAnInstanceNeverToldItsContextFailsClosed() {
        ModeConfigurations.recordStarted(new ModeConfiguration("Cluster", null));
        try {
            ImprovedSnowflakeBinding addedLater = new ImprovedSnowflakeBinding();
            addedLater.init(new Properties());
            IllegalStateException ex = assertThrows(IllegalStateException.class, addedLater::generator);
            assertTrue(ex.getMessage().contains("will not fall back to worker id 0"), ex.getMessage());
        } finally {
            ClusterRegistriesSeen.forget();
        }
    }
}
