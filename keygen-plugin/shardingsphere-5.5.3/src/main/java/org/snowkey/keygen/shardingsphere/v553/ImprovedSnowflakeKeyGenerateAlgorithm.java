package org.snowkey.keygen.shardingsphere.v553;

import java.util.Collection;
import java.util.Optional;
import java.util.Properties;

import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.apache.shardingsphere.infra.algorithm.keygen.spi.KeyGenerateAlgorithm;
import org.apache.shardingsphere.infra.instance.ComputeNodeInstanceContext;
import org.apache.shardingsphere.infra.instance.ComputeNodeInstanceContextAware;
import org.snowkey.keygen.generator.SequenceStream;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.shardingsphere.InstanceContextBound;
import org.snowkey.keygen.shardingsphere.InstanceContexts;
import org.snowkey.keygen.shardingsphere.ImprovedSnowflakeBinding;
import org.snowkey.keygen.shardingsphere.ShardingSphereLine;
import org.snowkey.keygen.shardingsphere.SingleKey;

/**
 * {@code IMPROVED_SNOWFLAKE} for ShardingSphere 5.5.3, whose key generator SPI moved to
 * {@code org.apache.shardingsphere.infra.algorithm.keygen.spi} with the methods of 5.5.2's. The same glue as
 * snowkey-keygen-plugin's 5.5 algorithm around {@link ImprovedSnowflakeBinding}: {@link #init} only validates, the generator
 * and its lease are bound when ShardingSphere hands over its compute node context (which owns them until
 * snowkey-keygen-plugin's lifecycle listener sees the context destroyed), or on the first key if it never does.
 */
public final class ImprovedSnowflakeKeyGenerateAlgorithm implements KeyGenerateAlgorithm, ComputeNodeInstanceContextAware, InstanceContextBound {

    public static final String TYPE = "IMPROVED_SNOWFLAKE";

    private final ImprovedSnowflakeBinding binding = new ImprovedSnowflakeBinding();

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

    @Override
    public Collection<? extends Comparable<?>> generateKeys(final AlgorithmSQLContext context, final int keyGenerateCount) {
        SequenceStream stream = context == null ? binding.stream(null, null) : binding.stream(context.getDatabaseName(), context.getTableName());
        if (keyGenerateCount == 1) {
            return new SingleKey(stream.nextId());
        }
        return stream.nextIds(keyGenerateCount);
    }

    @Override
    public String getType() {
        return TYPE;
    }
}
