package org.snowkey.keygen.shardingsphere;

import java.util.Collection;
import java.util.Optional;
import java.util.Properties;

import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;
import org.apache.shardingsphere.infra.instance.ComputeNodeInstanceContext;
import org.apache.shardingsphere.infra.instance.ComputeNodeInstanceContextAware;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.segment.SegmentSequence;

/**
 * ShardingSphere 5.5 key generator {@code SNOWKEY_SEGMENT}: dense keys below 2^53 from leased ranges
 * (docs/design.md, "Segment mode"); glue between the 5.5 SPI and {@link SegmentBinding}. Like
 * {@code IMPROVED_SNOWFLAKE}, {@link #init} only validates, and the allocator is joined when ShardingSphere hands over
 * the compute node context, which owns it until ShardingSphere destroys the context. How the context arrives differs
 * by 5.5 patch ({@link InstanceContexts}); on 5.5.0 {@code ComputeNodeInstanceContextAware} is SnowKey's stand-in.
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

    /** The binding: a seam for tests in this package. */
    SegmentBinding binding() {
        return binding;
    }

    @Override
    public String getType() {
        return TYPE;
    }
}
