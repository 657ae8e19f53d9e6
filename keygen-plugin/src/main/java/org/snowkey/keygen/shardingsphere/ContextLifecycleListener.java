package org.snowkey.keygen.shardingsphere;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.shardingsphere.infra.config.mode.ModeConfiguration;
import org.apache.shardingsphere.infra.instance.metadata.InstanceType;
import org.apache.shardingsphere.mode.manager.ContextManager;
import org.apache.shardingsphere.mode.manager.listener.ContextManagerLifecycleListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases the worker leases and segment allocators of a ShardingSphere context when it is destroyed (ShardingSphereDataSource.close()).
 * ShardingSphere never closes key generate algorithms, so this callback and the JVM shutdown hook are where
 * leases end. A lease shared with another live context stays until that one goes too.
 *
 * <p>Every line from 5.1 to 5.5 has an interface of this name, with other methods, and loads this class from
 * the services file too. The extra methods below carry the descriptors the other lines call (5.1 to 5.3:
 * {@code onInitialized(ModeConfiguration, ContextManager)}; 5.4 and 5.5.0: {@code onInitialized(String, ContextManager)}
 * and {@code onDestroyed(String, InstanceType)}), so those lines find a method instead of failing their start-up with
 * {@code AbstractMethodError}. On 5.5.0 they also hand the instance context to SnowKey's key generators, which 5.5.0's
 * sharding rule cannot ({@link InstanceContexts}); on 5.1 to 5.4 the listener does nothing but say why it is inert
 * (docs/design.md, "ShardingSphere lines").
 */
public final class ContextLifecycleListener implements ContextManagerLifecycleListener {

    private static final Logger LOG = LoggerFactory.getLogger(ContextLifecycleListener.class);

    private static final AtomicBoolean EXPLAINED = new AtomicBoolean();

    /**
     * Called by ShardingSphere 5.5.1 and later. On a 5.5 patch that needs an adapter (5.5.3) this listener still loads
     * while SnowKey's 5.5.0-5.5.2 key generators cannot, so here is where a missing adapter, or a line SnowKey was never
     * tested on, is reported (once per JVM).
     */
    @Override
    public void onInitialized(final ContextManager contextManager) {
        ShardingSphereLine.warnOnce(ContextManager.class);
        if (onPluginLine()) {
            // Every context's mode, with or without SnowKey key generators: one never told its context takes it from here.
            ModeConfigurations.recordStarted(contextManager.getComputeNodeInstanceContext().getModeConfiguration());
        }
    }

    @Override
    public void onDestroyed(final ContextManager contextManager) {
        InstanceContexts.release(contextManager.getComputeNodeInstanceContext());
    }

    /** Called by ShardingSphere 5.1 to 5.3 only: this listener is inert there. */
    public void onInitialized(final ModeConfiguration modeConfiguration, final ContextManager contextManager) {
        explainInert();
    }

    /** Called by ShardingSphere 5.4 (inert there) and 5.5.0 (binds SnowKey's key generators of the database). */
    public void onInitialized(final String databaseName, final ContextManager contextManager) {
        if (onPluginLine()) {
            InstanceContexts.bindDatabase(databaseName, contextManager);
        } else {
            explainInert();
        }
    }

    /** Called by ShardingSphere 5.4 (inert there: leases end at JVM shutdown) and 5.5.0 (releases the database's leases). */
    public void onDestroyed(final String databaseName, final InstanceType instanceType) {
        if (onPluginLine()) {
            InstanceContexts.releaseDatabase(databaseName);
        }
    }

    /**
     * True on the 5.5 patches this jar's key generators serve (5.5.0 to 5.5.2); of those, only 5.5.0 calls the methods
     * of the 5.4 descriptors.
     */
    private static boolean onPluginLine() {
        return ShardingSphereLine.runningVersion(ContextManager.class).map(ShardingSphereLine::lineOf).filter(ShardingSphereLine.PLUGIN_LINE::equals).isPresent();
    }

    private static void explainInert() {
        if (!EXPLAINED.compareAndSet(false, true)) {
            return;
        }
        String version = ShardingSphereLine.runningVersion(ContextManager.class).orElse("(unknown version)");
        String line = ShardingSphereLine.lineOf(version);
        List<ShardingSphereLine.Adapter> adapters = ShardingSphereLine.adapters(ContextLifecycleListener.class.getClassLoader());
        Optional<ShardingSphereLine.Adapter> serving = adapters.stream().filter(each -> each.line().equals(line)).findFirst();
        if (serving.isPresent()) {
            LOG.info("SnowKey: snowkey-keygen-plugin's ShardingSphere {} registrations stay inert on ShardingSphere {}; {} serves IMPROVED_SNOWFLAKE",
                    ShardingSphereLine.PLUGIN_LINE, version, serving.get().artifact());
        } else {
            LOG.warn("SnowKey: snowkey-keygen-plugin serves ShardingSphere {}.x by itself, and this is ShardingSphere {}: it stays inert here, "
                    + "so IMPROVED_SNOWFLAKE is not registered. Add {}", ShardingSphereLine.PLUGIN_LINE, version, ShardingSphereLine.artifactFor(line));
        }
    }
}
