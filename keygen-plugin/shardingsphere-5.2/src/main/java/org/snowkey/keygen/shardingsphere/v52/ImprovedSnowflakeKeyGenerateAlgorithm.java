package org.snowkey.keygen.shardingsphere.v52;

import java.util.Properties;

import org.apache.shardingsphere.infra.instance.InstanceContext;
import org.apache.shardingsphere.infra.instance.InstanceContextAware;
import org.apache.shardingsphere.sharding.spi.KeyGenerateAlgorithm;
import org.snowkey.keygen.shardingsphere.ImprovedSnowflakeBinding;
import org.snowkey.keygen.shardingsphere.ModeConfigurations;
import org.snowkey.keygen.shardingsphere.ShardingSphereLine;

/**
 * {@code IMPROVED_SNOWFLAKE} for ShardingSphere 5.2.x, whose SPI is {@code generateKey()} on a {@code ShardingSphereAlgorithm} with {@code getProps()} and {@code RequiredSPI},
 * and whose instance context arrives through {@code InstanceContextAware}. ShardingSphere does not name the
 * table: see {@link ImprovedSnowflakeBinding#streamWithoutTable()}.
 */
public final class ImprovedSnowflakeKeyGenerateAlgorithm implements KeyGenerateAlgorithm, InstanceContextAware {

    public static final String TYPE = "IMPROVED_SNOWFLAKE";

    private final ImprovedSnowflakeBinding binding = new ImprovedSnowflakeBinding();

    @Override
    public void init(final Properties props) {
        ShardingSphereLine.checkAdapters(KeyGenerateAlgorithm.class);
        binding.init(props);
    }

    @Override
    public void setInstanceContext(final InstanceContext instanceContext) {
        binding.bind(ModeConfigurations.clusterRegistry(instanceContext.getModeConfiguration()), instanceContext);
    }

    @Override
    public Comparable<?> generateKey() {
        return binding.streamWithoutTable().nextId();
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
