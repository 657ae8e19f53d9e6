package org.snowkey.keygen.shardingsphere.v553;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import org.apache.shardingsphere.infra.algorithm.keygen.spi.KeyGenerateAlgorithm;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.testkit.StandInInterfaces;

/**
 * The interfaces this module compiles and runs against that are not ShardingSphere 5.5.3's own jars: each must declare
 * exactly what 5.5.3 declares.
 */
class StandInsTest {

    /**
     * 5.5.3's {@code org.apache.shardingsphere.infra.algorithm.keygen.spi.KeyGenerateAlgorithm}, as its source declares it
     * (infra/algorithm/type/key-generator/spi in apache/shardingsphere): public, extends {@code ShardingSphereAlgorithm},
     * abstract {@code generateKeys(AlgorithmSQLContext, int)}, default {@code isSupportAutoIncrement()}, no annotations.
     * The same shape as 5.5.2's {@code keygen.core.KeyGenerateAlgorithm} (javap).
     */
    private static final String SPI_OF_553 = "public abstract interface extends [org.apache.shardingsphere.infra.algorithm.core.ShardingSphereAlgorithm] "
            + "[public abstract java.util.Collection generateKeys[org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext, int], "
            + "public boolean isSupportAutoIncrement[]] annotations []";

    @Test
    void theKeyGeneratorSpiStandInDeclaresWhat553Declares() throws Exception {
        String name = KeyGenerateAlgorithm.class.getName();
        List<URL> copies = StandInInterfaces.copies(name, getClass().getClassLoader());
        assertEquals(1, copies.size(), "only the build's stand-in (5.5.3's own jar is not served here): " + copies);
        assertTrue(copies.get(0).toString().contains("shardingsphere-5.5.3-spi"), copies.get(0).toString());
        Map<String, String> declared = StandInInterfaces.declarations(name, copies, getClass().getClassLoader());
        assertEquals(SPI_OF_553, declared.values().iterator().next());
        assertTrue(KeyGenerateAlgorithm.class.isInterface() && java.lang.reflect.Modifier.isPublic(KeyGenerateAlgorithm.class.getModifiers()));
    }

    @Test
    void snowKeysComputeNodeInstanceContextAwareDeclaresWhat553sOwnCopyDeclares() throws Exception {
        for (String each : StandInInterfaces.NAMES) {
            List<URL> copies = StandInInterfaces.copies(each, getClass().getClassLoader());
            assertEquals(2, copies.size(), "snowkey-keygen-plugin's stand-in and 5.5.3's own: " + copies);
            assertTrue(copies.stream().anyMatch(StandInInterfaces::isSnowKeys), copies.toString());
            assertTrue(copies.stream().anyMatch(url -> url.toString().contains("shardingsphere-infra-common-5.5.3")), copies.toString());
            Map<String, String> declarations = StandInInterfaces.declarations(each, copies, getClass().getClassLoader());
            assertEquals(1, new HashSet<>(declarations.values()).size(), "both copies declare the same: " + declarations);
        }
    }
}
