package org.snowkey.keygen.shardingsphere;

import java.util.Collection;
import java.util.Optional;
import java.util.Properties;

import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;
import org.apache.shardingsphere.infra.instance.ComputeNodeInstanceContext;
import org.apache.shardingsphere.infra.instance.ComputeNodeInstanceContextAware;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.generator.SequenceStream;
import org.snowkey.keygen.mode.ClusterRegistry;

/**
 * ShardingSphere 5.5 key generator {@code IMPROVED_SNOWFLAKE}: glue between the 5.5 SPI and {@link ImprovedSnowflakeBinding}.
 *
 * <p>{@link #init} only validates: ShardingSphere 5.5.2 builds throw-away instances while it checks rules and
 * never closes algorithms. The generator of the scope (and its lease) is bound when ShardingSphere hands over
 * its instance context, or on the first key if it never does. How the context arrives differs by 5.5 patch
 * ({@link InstanceContexts}); on 5.5.0 {@code ComputeNodeInstanceContextAware} is SnowKey's stand-in.
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
        // The context owns the scope: when ShardingSphere destroys it, the lease is released (ContextLifecycleListener).
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

    /** The generator this instance issues from, binding it if needed: a seam for tests (KeyGeneratorFixtures). */
    IdGenerator boundGenerator() {
        return binding.generator();
    }

    @Override
    public String getType() {
        return TYPE;
    }
}
