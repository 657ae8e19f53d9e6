package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.shardingsphere.ShardingSphereLine.Adapter;

class ShardingSphereLineTest {

    @Test
    void readsTheRunningVersionFromShardingSpheresOwnJars() {
        assertEquals("5.5.2", ShardingSphereLine.runningVersion(KeyGenerateAlgorithm.class).orElseThrow());
        assertEquals("5.4", ShardingSphereLine.lineOf("5.4.1"));
    }

    @Test
    void noAdapterOnTheClassPathOfThePluginItself() {
        assertEquals(List.of(), ShardingSphereLine.adapters(getClass().getClassLoader()));
        assertDoesNotThrow(() -> ShardingSphereLine.checkAdapters(KeyGenerateAlgorithm.class));
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
    void theAdapterOfTheRunningLinePasses() {
        assertDoesNotThrow(() -> ShardingSphereLine.check("5.4.1", List.of(new Adapter("snowkey-keygen-shardingsphere-5.4", "5.4"))));
    }
}
