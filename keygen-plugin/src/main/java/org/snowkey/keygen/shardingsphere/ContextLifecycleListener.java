package org.snowkey.keygen.shardingsphere;

import org.apache.shardingsphere.mode.manager.ContextManager;
import org.apache.shardingsphere.mode.manager.listener.ContextManagerLifecycleListener;
import org.snowkey.keygen.runtime.SnowKeyRuntime;

/**
 * Releases the worker leases of a ShardingSphere context when it is destroyed (ShardingSphereDataSource.close()).
 * ShardingSphere never closes key generate algorithms, so this callback and the JVM shutdown hook are where
 * leases end. A lease shared with another live context stays until that one goes too.
 */
public final class ContextLifecycleListener implements ContextManagerLifecycleListener {

    @Override
    public void onInitialized(final ContextManager contextManager) {
    }

    @Override
    public void onDestroyed(final ContextManager contextManager) {
        SnowKeyRuntime.get().release(contextManager.getComputeNodeInstanceContext());
    }
}
