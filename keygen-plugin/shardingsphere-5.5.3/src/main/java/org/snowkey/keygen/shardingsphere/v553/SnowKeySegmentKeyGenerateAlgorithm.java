package org.snowkey.keygen.shardingsphere.v553;

import java.util.Collection;
import java.util.Optional;
import java.util.Properties;

import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.apache.shardingsphere.infra.algorithm.keygen.spi.KeyGenerateAlgorithm;
import org.apache.shardingsphere.infra.instance.ComputeNodeInstanceContext;
import org.apache.shardingsphere.infra.instance.ComputeNodeInstanceContextAware;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.segment.SegmentSequence;
import org.snowkey.keygen.shardingsphere.InstanceContextBound;
import org.snowkey.keygen.shardingsphere.InstanceContexts;
import org.snowkey.keygen.shardingsphere.SegmentBinding;
import org.snowkey.keygen.shardingsphere.ShardingSphereLine;
import org.snowkey.keygen.shardingsphere.SingleKey;

/**
 * {@code SNOWKEY_SEGMENT} for ShardingSphere 5.5.3 (SPI moved to {@code org.apache.shardingsphere.infra.algorithm.keygen.spi}):
 * the same glue as snowkey-keygen-plugin's 5.5 algorithm around {@link SegmentBinding}. The allocator is joined when
 * ShardingSphere hands over the compute node context, which owns it until the context is destroyed.
 */
public final class SnowKeySegmentKeyGenerateAlgorithm implements KeyGenerateAlgorithm, ComputeNodeInstanceContextAware, InstanceContextBound {

    public static final String TYPE = "SNOWKEY_SEGMENT";

    private final SegmentBinding binding = new SegmentBinding();

    @Override
    public void init(final Properties props) {
        ShardingSphereLine.checkAdapters(KeyGenerateAlgorithm.class);
        binding.init(props);
    }

    @Override
    public void setComputeNodeInstanceContext(final ComputeNodeInstanceContext context) {
        InstanceContexts.bind(this, context);
    }

    @Override
    public void bindInstanceContext(final Optional<ClusterRegistry> cluster, final Object owner) {
        binding.bind(cluster, owner);
    }

    /** One key is one atomic step on the current range; a batch of a multi-row INSERT is one step where the range allows. */
    @Override
    public Collection<? extends Comparable<?>> generateKeys(final AlgorithmSQLContext context, final int keyGenerateCount) {
        SegmentSequence sequence = context == null ? binding.sequence(null, null) : binding.sequence(context.getDatabaseName(), context.getTableName());
        if (keyGenerateCount == 1) {
            return new SingleKey(sequence.nextId());
        }
        return sequence.nextIds(keyGenerateCount);
    }

    @Override
    public String getType() {
        return TYPE;
    }
}
