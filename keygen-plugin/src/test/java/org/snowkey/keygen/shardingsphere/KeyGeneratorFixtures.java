package org.snowkey.keygen.shardingsphere;

import org.snowkey.keygen.generator.IdGenerator;

/**
 * What tests in other packages and modules may reach of the ShardingSphere glue and applications may not: the
 * package-private seams of this package, handed on. snowkey-keygen-plugin's {@code -tests.jar} holds this class and
 * nothing else (the line adapters' contract, the Spring tests and the configuration checker use it).
 */
public final class KeyGeneratorFixtures {

    private KeyGeneratorFixtures() {
    }

    /** Forgets the Cluster mode registries seen so far in this JVM: for tests that start and stop Cluster-mode contexts in one JVM. */
    public static void forgetSeenClusterRegistries() {
        ClusterRegistriesSeen.forget();
    }

    /** The generator this key generator issues from, binding it (without a cluster registry) if ShardingSphere never did. */
    public static IdGenerator boundGenerator(final ImprovedSnowflakeKeyGenerateAlgorithm algorithm) {
        return algorithm.boundGenerator();
    }
}
