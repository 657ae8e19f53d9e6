package org.snowkey.keygen.shardingsphere.v553;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import org.junit.jupiter.api.Test;

/**
 * The jar users get (run in the package phase, after the jar is built): no ShardingSphere class in it (the SPI stand-in
 * stays a build dependency), both types registered under 5.5.3's interface, no lifecycle listener of its own
 * (snowkey-keygen-plugin's stays the only one), and the line marker ShardingSphereLine reads.
 */
class ShardingSphereJarTest {

    private static final String SERVICES = "META-INF/services/org.apache.shardingsphere.infra.algorithm.keygen.spi.KeyGenerateAlgorithm";

    @Test
    void theJarShipsTheAdapterAndNoShardingSphereClass() throws IOException {
        String path = System.getProperty("snowkey.adapter-jar");
        assertNotNull(path, "run by the jar-contents execution, which names the jar");
        assertTrue(Files.isRegularFile(Path.of(path)), path);
        try (JarFile jar = new JarFile(path)) {
            List<String> names = Collections.list(jar.entries()).stream().map(JarEntry::getName).filter(each -> !each.endsWith("/")).toList();
            assertEquals(List.of(), names.stream().filter(each -> each.startsWith("org/apache/")).toList(), "no ShardingSphere class ships");
            assertTrue(names.contains("org/snowkey/keygen/shardingsphere/v553/ImprovedSnowflakeKeyGenerateAlgorithm.class"), names.toString());
            assertEquals(List.of(SERVICES), names.stream().filter(each -> each.startsWith("META-INF/services/")).toList(), "one services file, no listener");
            assertEquals("org.snowkey.keygen.shardingsphere.v553.ImprovedSnowflakeKeyGenerateAlgorithm\norg.snowkey.keygen.shardingsphere.v553.SnowKeySegmentKeyGenerateAlgorithm\n",
                    read(jar, SERVICES));
            String marker = read(jar, "META-INF/snowkey/shardingsphere-adapter.properties");
            assertTrue(marker.contains("artifact=snowkey-keygen-shardingsphere-5.5.3") && marker.contains("line=5.5.3"), marker);
        }
    }

    private static String read(final JarFile jar, final String name) throws IOException {
        JarEntry entry = jar.getJarEntry(name);
        assertNotNull(entry, name);
        try (InputStream in = jar.getInputStream(entry)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
