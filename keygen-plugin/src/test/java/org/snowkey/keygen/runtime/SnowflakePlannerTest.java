package org.snowkey.keygen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.store.KnownStore;
import org.snowkey.keygen.lease.LeaseBackendSettings;
import org.snowkey.keygen.lease.LeaseRequest;
import org.snowkey.keygen.lease.PreparedLease;
import org.snowkey.keygen.lease.StaticHighWaterMarks;
import org.snowkey.keygen.lease.StaticWorkerLease;
import org.snowkey.keygen.lease.WorkerLease;
import org.snowkey.keygen.lease.WorkerLeaseProvider;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.shardingsphere.ImprovedSnowflakeBinding;

/**
 * Each setting is parsed and validated once, at start-up, and every rule of the configuration reference holds
 * whether or not a lease is taken. This module's test class path has no lease backend, as a ShardingSphere-Proxy
 * {@code ext-lib} with the plugin jar alone: the JVM's planner ({@link SnowflakePlanner#get()}) finds none. Two
 * backends of this test ({@code alpha}, {@code beta}) stand in where one is needed; they count their parses.
 */
class SnowflakePlannerTest {

    private final CountingBackend alpha = new CountingBackend("alpha");

    private final CountingBackend beta = new CountingBackend("beta");

    private final SnowflakePlanner planner = new SnowflakePlanner(Map.of("alpha", alpha, "beta", beta), new StaticHighWaterMarks());

    private static Properties props(final String... pairs) {
        Properties props = new Properties();
        for (int i = 0; i < pairs.length; i += 2) {
            props.setProperty(pairs[i], pairs[i + 1]);
        }
        return props;
    }

    private static InvalidSettingException rejected(final SnowflakePlanner planner, final Properties props) {
        return assertThrows(InvalidSettingException.class, () -> planner.plan(planner.parse(props), Optional.empty()));
    }

    private static Optional<ClusterRegistry> cluster(final String type, final String servers) {
        return Optional.of(new ClusterRegistry(type, "governance", servers, new Properties()));
    }

    // One parse

    @Test
    void theBackendParsesItsPropsOnceAndPlansReuseTheResult() {
        SnowflakeSettings settings = planner.parse(props("lease-registry", "alpha", "alpha-server", "a:1", "lease-pool", "orders"));
        assertEquals(1, alpha.parses.get());
        // Before ShardingSphere told the mode, and with it: the props are not read again.
        assertEquals("alpha|a:1|orders", planner.plan(settings, Optional.empty()).scopeKey());
        assertEquals("alpha|a:1|orders", planner.plan(settings, cluster("alpha", "mode:2")).scopeKey());
        assertEquals(1, alpha.parses.get());
        assertEquals(0, beta.parses.get(), "a backend neither named nor configured parses nothing");
    }

    @Test
    void theModeChoosesAConfiguredBackendWithoutParsingAgain() {
        SnowflakeSettings settings = planner.parse(props("alpha-server", "a:1"));
        assertEquals(1, alpha.parses.get());
        assertEquals("alpha|a:1|default", planner.plan(settings, cluster("Alpha", "mode:2")).scopeKey());
        assertEquals(1, alpha.parses.get());
        // Without the mode and without lease-registry no lease is taken (worker id 0, warned at open).
        assertTrue(planner.plan(settings, Optional.empty()).unguardedStaticWorkerId());
    }

    @Test
    void settingsAreImmutable() {
        Properties props = props("worker-id", "5");
        SnowflakeSettings settings = planner.parse(props);
        props.setProperty("worker-id", "6");
        assertEquals("static|worker-id=5", planner.plan(settings, Optional.empty()).scopeKey());
        assertThrows(UnsupportedOperationException.class, () -> settings.props().put("worker-id", "7"));
    }

    // Validated up front: lease props fail on their own, with or without a registry

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({"lease-duration-milliseconds, 500", "lease-duration-milliseconds, soon", "lease-acquire-timeout-milliseconds, -1",
        "lease-acquire-timeout-milliseconds, 3600001", "lease-pool, has space", "lease-pool, .."})
    void aLeasePropOutOfRangeFailsWithoutARegistryAndWithAStaticWorkerId(final String prop, final String value) {
        for (Properties each : new Properties[] {props(prop, value), props(prop, value, "worker-id", "3")}) {
            InvalidSettingException failure = rejected(planner, each);
            assertEquals(prop, failure.property());
            assertEquals(value, failure.shownValue());
            assertTrue(failure.allowed().startsWith("expected"), failure.allowed());
        }
    }

    @Test
    void theIssueExampleFailsAtInitNamingThePropAndTheValue() {
        InvalidSettingException failure = assertThrows(InvalidSettingException.class,
                () -> new ImprovedSnowflakeBinding().init(props("worker-id", "3", "lease-duration-milliseconds", "500")));
        assertEquals("Invalid SnowKey property 'lease-duration-milliseconds' = '500': expected a whole number from 1000 to 86400000",
                failure.getMessage());
    }

    // Rejected when they cannot apply

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({"lease-duration-milliseconds, 5000", "lease-acquire-timeout-milliseconds, 100", "lease-pool, orders", "instance-id, app-1",
        "alpha-server, a:1"})
    void aLeasePropCannotApplyToAStaticWorkerId(final String prop, final String value) {
        InvalidSettingException failure = assertThrows(InvalidSettingException.class,
                () -> planner.parseInheritingDefaults(props("worker-id", "3", prop, value)));
        assertEquals(prop, failure.property());
        assertEquals("Invalid SnowKey property '" + prop + "' = '" + value + "': cannot apply: worker-id = '3' is a static worker id, so no lease is"
                + " taken; remove " + prop + " or worker-id", failure.getMessage());
    }

    @Test
    void aStaticWorkerIdAndARegistryExcludeEachOther() {
        InvalidSettingException failure = rejected(planner, props("worker-id", "3", "lease-registry", "alpha", "alpha-server", "a:1"));
        assertEquals("worker-id", failure.property());
        assertTrue(failure.allowed().contains("exclude each other"), failure.allowed());
    }

    @Test
    void anotherBackendsPropCannotApply() {
        InvalidSettingException named = rejected(planner, props("lease-registry", "alpha", "alpha-server", "a:1", "beta-server", "b:1"));
        assertEquals("beta-server", named.property());
        assertEquals("cannot apply: it configures the beta lease backend, and lease-registry = 'alpha'; remove beta-server", named.allowed());
        // Chosen by the mode: known only once ShardingSphere tells it.
        SnowflakeSettings settings = planner.parse(props("beta-server", "b:1"));
        InvalidSettingException byMode = assertThrows(InvalidSettingException.class, () -> planner.plan(settings, cluster("alpha", "mode:2")));
        assertEquals("beta-server", byMode.property());
        assertTrue(byMode.allowed().contains("ShardingSphere's Cluster mode leases from alpha"), byMode.allowed());
    }

    @Test
    void anInheritedPropThatCannotApplySaysItWasInherited() {
        // The application's snowkey.* properties chose beta; a YAML key generator names alpha and does not set beta-server.
        planner.setDefaults(props("lease-registry", "beta", "beta-server", "b:1"));
        InvalidSettingException inherited = assertThrows(InvalidSettingException.class,
                () -> planner.parseInheritingDefaults(props("lease-registry", "alpha", "alpha-server", "a:1")));
        assertEquals("beta-server", inherited.property());
        assertEquals("Invalid SnowKey property 'beta-server' = 'b:1': cannot apply: it configures the beta lease backend, and lease-registry = 'alpha';"
                + " remove beta-server (this key generator's props do not set beta-server: it is inherited from the application's snowkey.* Spring"
                + " Boot properties, which every key generator of this JVM takes where its own props are silent)", inherited.getMessage());
        // Set by the key generator itself: the plain complaint.
        InvalidSettingException own = assertThrows(InvalidSettingException.class,
                () -> planner.parseInheritingDefaults(props("lease-registry", "alpha", "alpha-server", "a:1", "beta-server", "b:2")));
        assertEquals("cannot apply: it configures the beta lease backend, and lease-registry = 'alpha'; remove beta-server", own.allowed());
    }

    @Test
    void aSecretThatCannotApplyIsNotShown() {
        SnowflakePlanner withSecret = new SnowflakePlanner(Map.of("alpha", new CountingBackend("alpha", "alpha-password")), new StaticHighWaterMarks());
        InvalidSettingException failure = rejected(withSecret, props("worker-id", "3", "alpha-password", "TopSecret-4711"));
        assertEquals("alpha-password", failure.property());
        assertEquals("(hidden)", failure.shownValue());
        assertFalse(failure.getMessage().contains("TopSecret"), failure.getMessage());
    }

    // A missing backend is named (the JVM's planner: no backend on this class path)

    @ParameterizedTest(name = "{0}")
    @CsvSource({"jdbc, JDBC, jdbc-url, jdbc:postgresql://db/app", "zookeeper, ZooKeeper, zookeeper-server-lists, zk:2181"})
    void aRegistryWithoutItsBackendNamesTheArtifact(final String registry, final String backend, final String prop, final String value) {
        String expected = "the " + backend + " lease backend (artifact org.snowkey:snowkey-lease-" + registry
                + ", or org.snowkey:snowkey-registry-adapter for both backends) is not on the class path";
        InvalidSettingException named = rejected(SnowflakePlanner.get(), props("lease-registry", registry, prop, value, registry + "-username", "u"));
        assertEquals("lease-registry", named.property());
        assertEquals(registry, named.shownValue());
        assertTrue(named.allowed().startsWith(expected), named.getMessage());
        assertFalse(named.getMessage().contains("unknown property"), named.getMessage());
        // A backend prop alone says the same, not "unknown property".
        InvalidSettingException propAlone = rejected(SnowflakePlanner.get(), props(prop, value));
        assertEquals(prop, propAlone.property());
        assertTrue(propAlone.allowed().startsWith(expected), propAlone.getMessage());
    }

    @Test
    void aPasswordOfAMissingBackendIsNotShown() {
        InvalidSettingException failure = rejected(SnowflakePlanner.get(), props("jdbc-password", "TopSecret-4711"));
        assertEquals("jdbc-password", failure.property());
        assertFalse(failure.getMessage().contains("TopSecret"), failure.getMessage());
    }

    @Test
    void clusterModeWithoutItsBackendNamesTheArtifactAndWhatToSet() {
        SnowflakeSettings settings = SnowflakePlanner.get().parse(new Properties());
        InvalidSettingException failure = assertThrows(InvalidSettingException.class, () -> SnowflakePlanner.get().plan(settings, cluster("ZooKeeper", "zk:2181")));
        assertEquals("lease-registry", failure.property());
        assertTrue(failure.allowed().contains("the ZooKeeper lease backend (artifact org.snowkey:snowkey-lease-zookeeper, or org.snowkey:snowkey-registry-adapter for both backends) is not on the class path"),
                failure.allowed());
        assertTrue(failure.allowed().contains("Set lease-registry, or a worker-id unique to this instance"), failure.allowed());
    }

    @Test
    void anUnknownRegistryListsWhatExists() {
        InvalidSettingException failure = rejected(planner, props("lease-registry", "consul"));
        assertEquals("lease-registry", failure.property());
        assertTrue(failure.allowed().startsWith("no such lease registry; available: [alpha, beta]"), failure.allowed());
    }

    @Test
    void anUnknownPropStaysUnknown() {
        InvalidSettingException failure = rejected(planner, props("worker-idd", "3"));
        assertEquals("worker-idd", failure.property());
        assertFalse(failure.valueQuoted());
        assertTrue(failure.allowed().startsWith("unknown property"), failure.allowed());
    }

    /** A backend with one prop {@code <name>-server}, which Cluster mode may supply; it counts its parses. */
    private static final class CountingBackend implements WorkerLeaseProvider {

        private final String name;

        private final Set<String> names;

        private final AtomicInteger parses = new AtomicInteger();

        CountingBackend(final String name, final String... extraProps) {
            this.name = name;
            java.util.Set<String> all = new java.util.HashSet<>(Set.of(extraProps));
            all.add(name + "-server");
            this.names = Set.copyOf(all);
        }

        @Override
        public String registry() {
            return name;
        }

        @Override
        public Set<String> propertyNames() {
            return names;
        }

        @Override
        public LeaseBackendSettings parse(final Properties props, final LeaseTerms terms) {
            parses.incrementAndGet();
            return new Parsed(props.getProperty(name + "-server"), terms);
        }

        @Override
        public PreparedLease prepare(final LeaseRequest request) {
            Parsed parsed = request.backend(Parsed.class);
            String server = parsed.server() != null ? parsed.server()
                    : request.clusterRegistry().map(ClusterRegistry::serverLists).orElseThrow(() -> new InvalidSettingException(name + "-server", null, "required"));
            return new PreparedLease() {

                @Override
                public String scopeKey() {
                    return name + "|" + server + "|" + parsed.terms().pool();
                }

                @Override
                public WorkerLease open() {
                    return new StaticWorkerLease(1);
                }
            };
        }

        private record Parsed(String server, LeaseTerms terms) implements LeaseBackendSettings {
        }
    }
}
