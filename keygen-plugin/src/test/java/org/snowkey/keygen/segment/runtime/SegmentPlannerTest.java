package org.snowkey.keygen.segment.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.mode.ClusterRegistry;

class SegmentPlannerTest {

    private final SegmentPlanner planner = new SegmentPlanner(Map.of(TestAllocatorProvider.NAME, new TestAllocatorProvider()));

    private static Properties props(final String... pairs) {
        Properties props = new Properties();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            props.setProperty(pairs[i], pairs[i + 1]);
        }
        return props;
    }

    private InvalidSettingException rejected(final Properties props) {
        return assertThrows(InvalidSettingException.class, () -> planner.parse(props));
    }

    @Test
    void defaultsGiveASequencePerTableFromOne() {
        SegmentGeneratorSettings settings = planner.parse(props("segment-allocator", "TEST", "test-store", "a"));
        assertEquals("test", settings.allocator(), "the allocator name is matched without case");
        assertNull(settings.sharedKey());
        assertEquals(1L, settings.starts().startOf("any.table"));
        assertEquals(1_000L, settings.sequence().minStep());
        assertEquals("test|a", planner.plan(settings, Optional.empty()).allocator().scopeKey());
    }

    @Test
    void anUnknownPropIsNamedWithTheKnownOnes() {
        InvalidSettingException ex = rejected(props("segment-allocator", "test", "worker-id", "3"));
        assertEquals("worker-id", ex.property());
        assertTrue(ex.getMessage().contains("segment-step-min") && ex.getMessage().contains("test-store"), ex.getMessage());
    }

    @Test
    void aBackendPropWithoutTheAllocatorCannotApply() {
        InvalidSettingException ex = rejected(props("test-store", "a"));
        assertEquals("test-store", ex.property());
        assertTrue(ex.getMessage().contains("set segment-allocator = test"), ex.getMessage());
    }

    @Test
    void anAllocatorNobodyProvidesIsNamed() {
        InvalidSettingException ex = rejected(props("segment-allocator", "redis"));
        assertEquals("segment-allocator", ex.property());
        assertTrue(ex.getMessage().contains("[test]"), ex.getMessage());
    }

    @Test
    void anUnknownAllocatorNamesEveryShippedOne() {
        InvalidSettingException ex = rejected(props("segment-allocator", "consul"));
        assertEquals("segment-allocator", ex.property());
        assertTrue(ex.getMessage().contains("[zookeeper, jdbc, etcd]"), ex.getMessage());
    }

    @Test
    void aShippedAllocatorWhoseJarIsAbsentNamesTheArtifact() {
        InvalidSettingException ex = rejected(props("segment-allocator", "jdbc"));
        assertTrue(ex.getMessage().contains("org.snowkey:snowkey-lease-jdbc"), ex.getMessage());
        InvalidSettingException prop = rejected(props("segment-allocator", "test", "test-store", "a", "jdbc-url", "jdbc:h2:mem:x"));
        assertEquals("jdbc-url", prop.property());
        assertTrue(prop.getMessage().contains("org.snowkey:snowkey-lease-jdbc"), prop.getMessage());
    }

    @Test
    void standaloneWithoutAnAllocatorFailsNamingTheProp() {
        SegmentGeneratorSettings settings = planner.parse(props());
        InvalidSettingException ex = assertThrows(InvalidSettingException.class, () -> planner.plan(settings, Optional.empty()));
        assertEquals("segment-allocator", ex.property());
        assertTrue(ex.getMessage().contains("Standalone"), ex.getMessage());
    }

    @Test
    void clusterModeOnARegistryWithAnAllocatorNeedsNoProps() {
        ClusterRegistry cluster = new ClusterRegistry("Test", "governance", "127.0.0.1:2181", new Properties());
        SegmentPlan plan = planner.plan(planner.parse(props()), Optional.of(cluster));
        assertEquals("test|cluster:governance", plan.allocator().scopeKey());
        ClusterRegistry other = new ClusterRegistry("Etcd", "governance", "127.0.0.1:2379", new Properties());
        InvalidSettingException ex = assertThrows(InvalidSettingException.class, () -> planner.plan(planner.parse(props()), Optional.of(other)));
        assertTrue(ex.getMessage().contains("Cluster mode with a Etcd repository"), ex.getMessage());
    }

    @Test
    void sharedKeyAndStartValuesAreFoldedLikeTableNames() {
        SegmentGeneratorSettings settings = planner.parse(props("segment-allocator", "test", "test-store", "a", "segment-key", "`Orders`",
                "segment-start-value", "100", "segment-start-values", " Sharding_DB.T_ORDER = 1000001 ,db.`t_item`=5001"));
        assertEquals("orders", settings.sharedKey());
        assertEquals(1_000_001L, settings.starts().startOf("sharding_db.t_order"));
        assertEquals(5_001L, settings.starts().startOf("db.t_item"));
        assertEquals(100L, settings.starts().startOf("db.other"));
    }

    @Test
    void badStartValuesAreNamedEntryByEntry() {
        assertTrue(rejected(props("segment-start-values", "db.t=0")).getMessage().contains("key 'db.t' has '0'"));
        assertTrue(rejected(props("segment-start-values", "db.t")).getMessage().contains("'db.t' has no '='"));
        assertTrue(rejected(props("segment-start-values", "DB.T=5,db.t=6")).getMessage().contains("key 'db.t' is given twice"));
        assertEquals("segment-start-value", rejected(props("segment-start-value", "9007199254740992")).property());
    }

    @Test
    void stepBoundsAreCheckedTogether() {
        assertEquals(2_000_000L, planner.parse(props("segment-step-min", "2000000")).sequence().maxStep(), "a larger minimum lifts the default maximum");
        InvalidSettingException ex = rejected(props("segment-step-min", "500", "segment-step-max", "100"));
        assertEquals("segment-step-max", ex.property());
        assertEquals("segment-prefetch-percent", rejected(props("segment-prefetch-percent", "100")).property());
        assertEquals("segment-fetch-timeout-milliseconds", rejected(props("segment-fetch-timeout-milliseconds", "0")).property());
    }

    @Test
    void defaultsAreInheritedAndOverridden() {
        SegmentPlanner inheriting = new SegmentPlanner(Map.of(TestAllocatorProvider.NAME, new TestAllocatorProvider()));
        inheriting.setDefaults(props("segment-allocator", "test", "test-store", "spring", "segment-step-min", "50"));
        SegmentGeneratorSettings settings = inheriting.parseInheritingDefaults(props("segment-step-min", "70"));
        assertEquals("test", settings.allocator());
        assertEquals(70L, settings.sequence().minStep());
    }

    @Test
    void anInheritedPropThatCannotApplySaysItWasInherited() {
        SegmentPlanner inheriting = new SegmentPlanner(Map.of(TestAllocatorProvider.NAME, new TestAllocatorProvider()));
        inheriting.setDefaults(props("test-store", "spring"));
        InvalidSettingException inherited = assertThrows(InvalidSettingException.class,
                () -> inheriting.parseInheritingDefaults(props("segment-step-min", "70")));
        assertEquals("test-store", inherited.property());
        assertTrue(inherited.allowed().endsWith("(this key generator's props do not set test-store: it is inherited from the application's snowkey.*"
                + " Spring Boot properties, which every key generator of this JVM takes where its own props are silent)"), inherited.allowed());
    }
}
