package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;
import org.apache.shardingsphere.infra.spi.type.typed.TypedSPILoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.runtime.SnowflakePlanner;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.keygen.testing.ShardingSphereFixture;

class ImprovedSnowflakeConfigurationTest {

    @TempDir
    Path directory;

    @AfterEach
    void releaseGenerators() {
        SnowflakeRuntime.get().closeAll();
    }

    private static Properties props(final String... keyValues) {
        Properties props = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            props.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return props;
    }

    @Test
    void isFoundByShardingSphereUnderItsType() {
        KeyGenerateAlgorithm algorithm = TypedSPILoader.getService(KeyGenerateAlgorithm.class, "IMPROVED_SNOWFLAKE", props("worker-id", "31"));
        assertTrue(algorithm instanceof ImprovedSnowflakeKeyGenerateAlgorithm);
        Collection<? extends Comparable<?>> keys = algorithm.generateKeys(new AlgorithmSQLContext("db", "db", "t_order", "order_id"), 1);
        Comparable<?> key = keys.iterator().next();
        assertTrue(key instanceof Long);
        assertEquals(List.of(key), keys, "one key reads as a one-element List<Long>, as SNOWKEY_SEGMENT's does");
        assertEquals(31, ((ImprovedSnowflakeKeyGenerateAlgorithm) algorithm).boundGenerator().decode((Long) key).workerId());
    }

    @Test
    void instancesOfOneScopeShareTheGeneratorAndTheTableStreams() {
        ImprovedSnowflakeKeyGenerateAlgorithm first = new ImprovedSnowflakeKeyGenerateAlgorithm();
        first.init(props("worker-id", "32"));
        ImprovedSnowflakeKeyGenerateAlgorithm second = new ImprovedSnowflakeKeyGenerateAlgorithm();
        second.init(props("worker-id", "32"));
        assertSame(first.boundGenerator(), second.boundGenerator());
        AlgorithmSQLContext orders = new AlgorithmSQLContext("db", "db", "t_order", "order_id");
        long a = (Long) first.generateKeys(orders, 1).iterator().next();
        long b = (Long) second.generateKeys(orders, 1).iterator().next();
        assertTrue(b > a, "the second instance continues the first one's stream");
        assertEquals(1, Math.abs(a % 2 - b % 2), "and its parity");
    }

    @Test
    void runtimeDefaultsApplyWhereTheKeyGeneratorIsSilentAndItsOwnPropsWin() {
        SnowflakePlanner.get().setDefaults(props("worker-id", "34", "sequence-low-bits", "2"));
        try {
            ImprovedSnowflakeKeyGenerateAlgorithm silent = new ImprovedSnowflakeKeyGenerateAlgorithm();
            silent.init(new Properties());
            assertEquals(34, silent.boundGenerator().currentGrant().workerId());
            assertEquals(2, silent.boundGenerator().layout().sequenceLowBits());
            ImprovedSnowflakeKeyGenerateAlgorithm explicit = new ImprovedSnowflakeKeyGenerateAlgorithm();
            explicit.init(props("worker-id", "35", "sequence-low-bits", "0"));
            assertEquals(35, explicit.boundGenerator().currentGrant().workerId());
            assertEquals(0, explicit.boundGenerator().layout().sequenceLowBits());
        } finally {
            SnowflakePlanner.get().setDefaults(new Properties());
        }
    }

    @Test
    void aScopeRefusesASecondLayout() {
        ImprovedSnowflakeKeyGenerateAlgorithm first = new ImprovedSnowflakeKeyGenerateAlgorithm();
        first.init(props("worker-id", "33"));
        first.boundGenerator();
        ImprovedSnowflakeKeyGenerateAlgorithm second = new ImprovedSnowflakeKeyGenerateAlgorithm();
        second.init(props("worker-id", "33", "sequence-low-bits", "3"));
        IllegalStateException failure = assertThrows(IllegalStateException.class, second::boundGenerator);
        assertTrue(failure.getMessage().contains("must share these settings"), failure.getMessage());
    }

    @Test
    void initRejectsAnUnknownLeaseRegistryNamingIt() {
        ImprovedSnowflakeKeyGenerateAlgorithm algorithm = new ImprovedSnowflakeKeyGenerateAlgorithm();
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> algorithm.init(props("lease-registry", "etcd")));
        assertTrue(failure.getMessage().startsWith("Invalid SnowKey property 'lease-registry' = 'etcd'"), failure.getMessage());
    }

    @Test
    void initRejectsAStaticWorkerIdNextToALeaseRegistry() {
        ImprovedSnowflakeKeyGenerateAlgorithm algorithm = new ImprovedSnowflakeKeyGenerateAlgorithm();
        assertThrows(IllegalArgumentException.class, () -> algorithm.init(props("worker-id", "1", "lease-registry", "etcd")));
    }

    @Test
    void aBadPropInYamlFailsStartUpWithThePropAndTheValue() throws Exception {
        ShardingSphereFixture fixture = new ShardingSphereFixture(directory, Map.of("worker-id-bits", "99"));
        Exception failure = assertThrows(Exception.class, fixture::connect);
        Throwable cause = failure;
        while (cause.getCause() != null && !cause.getMessage().contains("worker-id-bits")) {
            cause = cause.getCause();
        }
        assertTrue(cause.getMessage().contains("Invalid SnowKey property 'worker-id-bits' = '99': expected a whole number from 1 to 21"), cause.getMessage());
    }
}
