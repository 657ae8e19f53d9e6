package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.shardingsphere.ShardingSphereLine.Adapter;

class ShardingSphereLineTest {

    private static final Adapter ADAPTER_553 = new Adapter("snowkey-keygen-shardingsphere-5.5.3", "5.5.3");

    @TempDir
    Path directory;

    @Test
    void readsTheRunningVersionFromShardingSpheresOwnJars() {
        assertEquals("5.5.2", ShardingSphereLine.runningVersion(KeyGenerateAlgorithm.class).orElseThrow());
        assertEquals("5.4", ShardingSphereLine.lineOf("5.4.1"));
    }

    @Test
    void the55PatchesUpTo552AreOneLineAndFrom553OnEachPatchIsItsOwn() {
        assertEquals("5.5", ShardingSphereLine.lineOf("5.5.0"));
        assertEquals("5.5", ShardingSphereLine.lineOf("5.5.2"));
        assertEquals("5.5.3", ShardingSphereLine.lineOf("5.5.3"));
        assertEquals("5.5.3", ShardingSphereLine.lineOf("5.5.3-SNAPSHOT"));
        assertEquals("5.5.4", ShardingSphereLine.lineOf("5.5.4"));
        assertEquals("5.6", ShardingSphereLine.lineOf("5.6.0"));
        assertEquals("snowkey-keygen-shardingsphere-5.5.3 (with snowkey-keygen-plugin)", ShardingSphereLine.artifactFor("5.5.3"));
    }

    @Test
    void noAdapterOnTheClassPathOfThePluginItself() {
        assertEquals(List.of(), ShardingSphereLine.adapters(getClass().getClassLoader()));
        assertDoesNotThrow(() -> ShardingSphereLine.checkAdapters(KeyGenerateAlgorithm.class));
        assertEquals(Optional.empty(), ShardingSphereLine.warnOnce(KeyGenerateAlgorithm.class), "5.5.2 is served by the plugin alone");
    }

    @Test
    void anAdapterOfAnotherLineFailsNamingBothVersionsAndTheRightArtifact() {
        IllegalStateException onOlder = assertThrows(IllegalStateException.class,
                () -> ShardingSphereLine.check("5.3.2", List.of(new Adapter("snowkey-keygen-shardingsphere-5.4", "5.4"))));
        assertTrue(onOlder.getMessage().contains("snowkey-keygen-shardingsphere-5.4 is built for ShardingSphere 5.4.x"), onOlder.getMessage());
        assertTrue(onOlder.getMessage().contains("runs ShardingSphere 5.3.2"), onOlder.getMessage());
        assertTrue(onOlder.getMessage().contains("use snowkey-keygen-shardingsphere-5.3"), onOlder.getMessage());

        IllegalStateException onPluginLine = assertThrows(IllegalStateException.class,
                () -> ShardingSphereLine.check("5.5.0", List.of(new Adapter("snowkey-keygen-shardingsphere-5.1", "5.1"))));
        assertTrue(onPluginLine.getMessage().contains("use snowkey-keygen-plugin alone"), onPluginLine.getMessage());

        IllegalStateException unsupported = assertThrows(IllegalStateException.class,
                () -> ShardingSphereLine.check("5.0.0", List.of(new Adapter("snowkey-keygen-shardingsphere-5.1", "5.1"))));
        assertTrue(unsupported.getMessage().contains("5.0.x is not supported"), unsupported.getMessage());
    }

    @Test
    void the553AdapterOnAnEarlier55PatchFailsAndAnotherAdapterOn553Too() {
        IllegalStateException on552 = assertThrows(IllegalStateException.class, () -> ShardingSphereLine.check("5.5.2", List.of(ADAPTER_553)));
        assertTrue(on552.getMessage().contains("snowkey-keygen-shardingsphere-5.5.3 is built for ShardingSphere 5.5.3, but this application runs ShardingSphere 5.5.2"),
                on552.getMessage());
        assertTrue(on552.getMessage().contains("use snowkey-keygen-plugin alone"), on552.getMessage());

        IllegalStateException on553 = assertThrows(IllegalStateException.class,
                () -> ShardingSphereLine.check("5.5.3", List.of(new Adapter("snowkey-keygen-shardingsphere-5.4", "5.4"))));
        assertTrue(on553.getMessage().contains("use snowkey-keygen-shardingsphere-5.5.3 (with snowkey-keygen-plugin)"), on553.getMessage());
    }

    @Test
    void theAdapterOfTheRunningLinePasses() {
        assertDoesNotThrow(() -> ShardingSphereLine.check("5.4.1", List.of(new Adapter("snowkey-keygen-shardingsphere-5.4", "5.4"))));
        assertDoesNotThrow(() -> ShardingSphereLine.check("5.5.3", List.of(ADAPTER_553)));
    }

    @Test
    void on553WithoutTheAdapterTheWarningNamesTheAdapterToAdd() {
        String warning = ShardingSphereLine.warning("5.5.3", List.of()).orElseThrow();
        assertTrue(warning.contains("ShardingSphere 5.5.3"), warning);
        assertTrue(warning.contains("Add snowkey-keygen-shardingsphere-5.5.3 next to snowkey-keygen-plugin"), warning);
        assertTrue(warning.contains("SPI-00001"), warning);

        assertEquals(Optional.empty(), ShardingSphereLine.warning("5.5.3", List.of(ADAPTER_553)), "the adapter is there");
        assertEquals(Optional.empty(), ShardingSphereLine.warning("5.5.2", List.of()), "the plugin serves 5.5.2 alone");
        assertEquals(Optional.empty(), ShardingSphereLine.warning("5.4.1", List.of()), "the listener explains 5.1 to 5.4 itself");
    }

    @Test
    void aLineNewerThanEveryKnownLineIsReportedUntestedNotTakenForTheNearestOne() {
        for (String version : List.of("5.5.4", "5.6.0", "6.0.0")) {
            String warning = ShardingSphereLine.warning(version, List.of(ADAPTER_553)).orElseThrow(() -> new AssertionError(version + " must warn"));
            assertTrue(warning.contains("ShardingSphere " + version + " is a line SnowKey has not been tested on"), warning);
            assertTrue(warning.contains("5.5.3"), "names the newest line SnowKey knows: " + warning);
            assertTrue(warning.contains("Adapters present: [snowkey-keygen-shardingsphere-5.5.3]"), warning);
            assertTrue(ShardingSphereLine.artifactFor(ShardingSphereLine.lineOf(version)).contains("is untested"), version);
            // Untested is said, not failed: whether the newest adapter works there is unknown either way.
            assertDoesNotThrow(() -> ShardingSphereLine.check(version, List.of(ADAPTER_553)));
        }
    }

    @Test
    void theRunningVersionIsReadFromTheJarsAndA553WithoutTheAdapterIsWarnedAbout() throws Exception {
        assertTrue(ShardingSphereLine.warnOnce(probeOf("5.5.3")).orElseThrow().contains("Add snowkey-keygen-shardingsphere-5.5.3"));
        assertTrue(ShardingSphereLine.warnOnce(probeOf("5.6.0")).orElseThrow().contains("has not been tested on"));
        assertEquals(Optional.empty(), ShardingSphereLine.warnOnce(probeOf("5.5.1")));
    }

    @Test
    void theClassPathIsReadOncePerClassLoaderAndAnotherLoaderIsReadAfresh() throws Exception {
        Class<?> plain = probeOf("5.5.2");
        assertDoesNotThrow(() -> ShardingSphereLine.checkAdapters(plain));
        // Same ShardingSphere, but this loader also sees the 5.4 adapter: what was read for the first loader must not answer for it.
        Class<?> withAdapter = probeOf("5.5.2", "5.4");
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> ShardingSphereLine.checkAdapters(withAdapter));
        assertTrue(refused.getMessage().contains("snowkey-keygen-shardingsphere-5.4 is built for ShardingSphere 5.4.x"), refused.getMessage());
        // Read once, refused every time, and the first loader's answer stays its own.
        assertThrows(IllegalStateException.class, () -> ShardingSphereLine.checkAdapters(withAdapter));
        assertDoesNotThrow(() -> ShardingSphereLine.checkAdapters(plain));
        assertTrue(ShardingSphereLine.warnOnce(probeOf("5.5.3")).isPresent(), "a third loader, on 5.5.3 without its adapter");
    }

    private Class<?> probeOf(final String version) throws Exception {
        return probeOf(version, null);
    }

    /**
     * A class whose loader sees a ShardingSphere of that version, detected as the code detects it (the Maven metadata
     * of shardingsphere-infra-common) and with no SnowKey adapter: the loader has no parent, only a copy of
     * {@link Probe} and the metadata, and the marker of an adapter for {@code adapterLine} unless that is null.
     */
    private Class<?> probeOf(final String version, final String adapterLine) throws Exception {
        Path root = Files.createTempDirectory(directory, version + "-");
        if (adapterLine != null) {
            Path marker = root.resolve(ShardingSphereLine.ADAPTER_MARKER);
            Files.createDirectories(marker.getParent());
            Files.writeString(marker, "artifact=" + ShardingSphereLine.adapterArtifact(adapterLine) + "\nline=" + adapterLine + "\n");
        }
        Path pom = root.resolve("META-INF/maven/org.apache.shardingsphere/shardingsphere-infra-common/pom.properties");
        Files.createDirectories(pom.getParent());
        Files.writeString(pom, "groupId=org.apache.shardingsphere\nartifactId=shardingsphere-infra-common\nversion=" + version + "\n");
        String classFile = Probe.class.getName().replace('.', '/') + ".class";
        Path copy = root.resolve(classFile);
        Files.createDirectories(copy.getParent());
        try (InputStream in = Probe.class.getClassLoader().getResourceAsStream(classFile)) {
            Files.write(copy, in.readAllBytes());
        }
        URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null);
        Class<?> result = loader.loadClass(Probe.class.getName());
        assertEquals(loader, result.getClassLoader());
        return result;
    }

    /** Stands for a ShardingSphere class in a loader of its own. */
    static final class Probe {
    }
}
