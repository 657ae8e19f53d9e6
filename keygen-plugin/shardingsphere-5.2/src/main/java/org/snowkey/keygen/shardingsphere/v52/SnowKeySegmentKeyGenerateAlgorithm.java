package org.snowkey.keygen.shardingsphere.v52;

import java.util.Properties;

import org.apache.shardingsphere.infra.instance.InstanceContext;
import org.apache.shardingsphere.infra.instance.InstanceContextAware;
import org.apache.shardingsphere.sharding.spi.KeyGenerateAlgorithm;
import org.snowkey.keygen.shardingsphere.ModeConfigurations;
import org.snowkey.keygen.shardingsphere.SegmentBinding;
import org.snowkey.keygen.shardingsphere.ShardingSphereLine;

/**
 * {@code SNOWKEY_SEGMENT} for ShardingSphere 5.2.x: the same SPI glue as this line's {@code IMPROVED_SNOWFLAKE}, over
 * {@link SegmentBinding}. ShardingSphere does not name the table, so {@code segment-key} is required
 * ({@link SegmentBinding#initWithoutTables}); the scope is released at JVM shutdown, as this line never says when its
 * context is destroyed.
 */
public final class SnowKeySegmentKeyGenerateAlgorithm implements KeyGenerateAlgorithm, InstanceContextAware {

    public static final String TYPE = "SNOWKEY_SEGMENT";

    private final SegmentBinding binding = new SegmentBinding();

    @Override
    public void init(final Properties props) {
        ShardingSphereLine.checkAdapters(KeyGenerateAlgorithm.class);
        binding.initWithoutTables(props, "5.2");
    }

    @Override
    public void setInstanceContext(final InstanceContext instanceContext) {
        binding.bind(ModeConfigurations.clusterRegistry(instanceContext.getModeConfiguration()), instanceContext);
    }

    @Override
    public Comparable<?> generateKey() {
        return binding.sequenceWithoutTable().nextId();
    }

    @Override
    public Properties getProps() {
        return binding.props();
    }

    @Override
    public String getType() {
        return TYPE;
    }
}
