package org.apache.shardingsphere.infra.algorithm.keygen.spi;

import java.util.Collection;

import org.apache.shardingsphere.infra.algorithm.core.ShardingSphereAlgorithm;
import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;

/**
 * SnowKey's build-time stand-in for ShardingSphere 5.5.3's key generator SPI (artifact
 * {@code shardingsphere-infra-algorithm-key-generator-spi}), which this build cannot download. It declares what
 * 5.5.3's declares: the super-interface {@code ShardingSphereAlgorithm}, the abstract {@code generateKeys} and the
 * default {@code isSupportAutoIncrement} returning false, no annotations (the same shape as 5.5.2's
 * {@code org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm}, checked with javap).
 * {@code StandIn553InterfaceTest} pins that shape. Never shipped: the 5.5.3 adapter takes this module in provided
 * scope and its jar test proves the class is not in the adapter's jar. Never add anything here.
 */
public interface KeyGenerateAlgorithm extends ShardingSphereAlgorithm {

    /** The keys of one INSERT: {@code keyGenerateCount} of them. */
    Collection<? extends Comparable<?>> generateKeys(AlgorithmSQLContext context, int keyGenerateCount);

    /** Whether the database's own auto-increment may stand in for this algorithm; ShardingSphere's default is no. */
    default boolean isSupportAutoIncrement() {
        return false;
    }
}
